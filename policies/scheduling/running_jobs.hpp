#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/model/decision.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// What a scheduler remembers about a job it started. The engine removes a finished job from the
/// ClusterView before the scheduler hears of it, so everything needed afterwards is kept here.
struct RunningJob {
  model::JobId id{};
  model::JobType type = model::JobType::OTHER;
  model::UserId user{};
  std::uint32_t gpus = 0;   ///< GPUs requested (1 for a fractional job)
  std::uint64_t milli = 0;  ///< GPUs held in thousandths (a fractional job: its share)
  double start_s = 0.0;     ///< start of this attempt
  double prior_gpu_s = 0.0; ///< GPU-seconds attained in earlier attempts
  double est_end_s = 0.0;   ///< estimated end; pushed later when the job runs past it
  model::Placement placement;
};

/// GPUs a job holds in thousandths: 1000 per whole GPU, or its share of one GPU.
inline std::uint64_t job_milli(const model::JobSpec& job) {
  return job.is_fractional() ? job.gpu_milli : std::uint64_t{job.gpus} * model::MILLI_PER_GPU;
}

/// Whole GPUs one running job is planned to hold on one node (see planned_gpus).
struct JobShare {
  model::JobId job{};
  std::uint32_t gpus = 0;
};

/// A job running longer than estimated gets a new estimated total of twice what it has run so far, at
/// least this much later than now (trace timestamps have one-second resolution).
inline constexpr double OVERRUN_MIN_EXTENSION_S = 1.0;

/// The running jobs a scheduler started, by id, by estimated end and by node.
class RunningJobs {
public:
  void add(RunningJob job);
  /// Forgets a job (it ended or was preempted); nullopt when it was not known.
  std::optional<RunningJob> remove(model::JobId id);
  const RunningJob* find(model::JobId id) const;
  bool empty() const { return jobs_.empty(); }
  std::size_t size() const { return jobs_.size(); }

  /// Pushes the estimated end of every job that is still running at `now_s` although its estimate
  /// said it would have ended (estimates are never in the past). True when any changed.
  bool extend_overruns(double now_s);
  /// Earliest estimated end, +inf when nothing runs.
  double earliest_end_s() const;
  /// (estimated end, id) in increasing order.
  const std::set<std::pair<double, model::JobId>>& by_end() const { return by_end_; }
  const std::unordered_map<model::JobId, RunningJob>& all() const { return jobs_; }
  /// Jobs with GPUs on `node` and their GPUs there (unordered).
  const std::vector<JobShare>& on_node(model::NodeId node) const;

private:
  std::unordered_map<model::JobId, RunningJob> jobs_;
  std::set<std::pair<double, model::JobId>> by_end_;
  std::vector<std::vector<JobShare>> on_node_;
};

} // namespace acme::policies
