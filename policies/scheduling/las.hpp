#pragma once

#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/ordered_queue.hpp"
#include "policies/scheduling/policy_params.hpp"
#include "policies/scheduling/queue_scheduler.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// Tiresias' queue threshold for two-queue discretised 2D-LAS: 3,250 GPU-seconds (SymbioticLab/Tiresias
/// simulator, jobs.py queue_limit, scheme dlas-gpu).
inline constexpr double TIRESIAS_THRESHOLD_GPU_S = 3250.0;
/// Starvation knob: a queued job that already ran is promoted to the top queue once it has waited this
/// many times the run time its service counts (Tiresias' STARVELIMIT/PROMOTE_KNOB; its simulator sweeps
/// values from 0.5 to 1000, run_sim.py `solve_starvation`).
inline constexpr double DEFAULT_STARVATION_KNOB = 8.0;
/// A running job is preempted only after it ran this long since it started: a preemption costs a
/// checkpoint and a restore (minutes), and a job demoted and preempted again before it computes would
/// never finish (low thresholds made 262 short jobs run for months). Assumption: ten minutes, a few
/// times the restore costs of acme-sim's defaults, like the time quanta of GPU time-slicing schedulers.
inline constexpr double DEFAULT_MIN_RUN_S = 600.0;

/// Tiresias-style discretised two-dimensional least-attained-service (Gu et al., NSDI'19).
struct LasParams {
  std::vector<double> thresholds_gpu_s = {TIRESIAS_THRESHOLD_GPU_S};
  double starvation_knob = DEFAULT_STARVATION_KNOB; ///< 0 disables promotion
  double min_run_s = DEFAULT_MIN_RUN_S;             ///< a job runs this long before it can be preempted
  bool preemption = true;
  std::uint32_t queue_depth = DEFAULT_QUEUE_DEPTH;

  static const ParamTable<LasParams>& table();
};

/// A job's service is the GPU-time it attained (GPUs x seconds, all attempts, plus the current one);
/// thresholds cut it into queues (queue 0 first), first come first served within a queue. Jobs are
/// demoted as their service crosses a threshold while they run. Every job that fits starts, in queue
/// order; a job that does not fit preempts running jobs of strictly lower queues (the lowest queue and
/// the latest started first) when that makes room, and their GPUs are kept for it. A job that waited
/// starvation_knob times its counted run time is promoted to queue 0 with its count reset.
class LasScheduler final : public QueueScheduler {
public:
  explicit LasScheduler(LasParams params);

  /// Queue of a job with `service_gpu_s` counted service.
  std::uint32_t level_of(double service_gpu_s) const;
  /// Queue of a running job (for tests); -1 when not running.
  int running_level(model::JobId job) const;
  const OrderedQueue& queue() const { return queue_; }

protected:
  PassQueue& gpu_queue() override { return queue_; }
  void enqueue(const model::JobEntry& entry) override;
  bool prepare_round(const model::ClusterView& cluster) override;
  Step decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) override;
  bool preemption_possible() const override { return params_.preemption && !running_info_.empty(); }
  std::vector<model::JobId> plan_preemption(const model::JobEntry& entry) override;
  void on_job_started(const RunningJob& job) override;
  void on_job_stopped(const RunningJob& job, model::EndCause cause) override;

private:
  struct Running {
    std::uint32_t level = 0;
    double counted_at_start_gpu_s = 0.0;
    double share = 0.0; ///< GPUs held (a fractional job: its share)
    double start_s = 0.0;
    double demote_at_s = 0.0; ///< when its service crosses its queue's threshold (+inf in the last queue)
  };

  double counted_gpu_s(const model::JobEntry& entry) const;
  void schedule_demotion(model::JobId id, Running& info);
  void set_level(model::JobId id, Running& info, std::uint32_t level);

  LasParams params_;
  OrderedQueue queue_;
  std::unordered_map<model::JobId, double> offset_gpu_s_; ///< service no longer counted (promotions)
  std::unordered_map<model::JobId, Running> running_info_;
  std::vector<std::set<std::pair<double, model::JobId>>> by_level_; ///< running jobs per queue, by start
  std::set<std::pair<double, model::JobId>> demotions_;
  std::map<model::JobId, double> promotion_at_;
  std::set<std::pair<double, model::JobId>> promotions_;
};

std::unique_ptr<Scheduler> make_las(const LasParams& params);

} // namespace acme::policies
