#pragma once

#include <limits>
#include <map>
#include <memory>
#include <vector>

#include "policies/registry.hpp"
#include "policies/scheduling/availability_profile.hpp"
#include "policies/scheduling/ordered_queue.hpp"
#include "policies/scheduling/policy_params.hpp"
#include "policies/scheduling/queue_scheduler.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// Conservative backfilling (Mu'alem & Feitelson 2001) over a first-come first-served queue.
struct ConservativeBackfillParams {
  std::uint32_t queue_depth = DEFAULT_QUEUE_DEPTH;
  EstimatorParams estimator;

  static ConservativeBackfillParams parse(const config::Node& node);
  static std::vector<ParamDoc> docs();
};

/// Every queued job examined, in submission order, either starts now or gets a reservation at the
/// earliest time the profile of future free GPUs (running jobs' estimated ends and the reservations of
/// the jobs before it) has room for it on whole nodes as placement requires; a job starts now only where
/// it delays no earlier reservation. The pass stops when no GPU is free (nothing else can start) or after
/// queue_depth jobs (later jobs get no reservation, as in Slurm's backfill depth).
class ConservativeBackfillScheduler final : public QueueScheduler {
public:
  explicit ConservativeBackfillScheduler(ConservativeBackfillParams params);

  const AvailabilityProfile& profile() const { return profile_; }
  /// Reserved start of each job the current plan holds a reservation for.
  const std::map<model::JobId, double>& reservations() const { return reserved_at_; }

protected:
  void enqueue(const model::JobEntry& entry) override;
  void schedule_gpus(const model::ClusterView& cluster, const RoundChanges& changes,
                     std::vector<model::Decision>& out) override;
  void on_job_started(const RunningJob& job) override {
    queue_.erase(job.id);
    reserved_at_.erase(job.id);
  }

private:
  void full_pass(const model::ClusterView& cluster, std::vector<model::Decision>& out);
  bool arrivals_pass(const model::ClusterView& cluster, const RoundChanges& changes, std::vector<model::Decision>& out);
  void consider(const model::JobEntry& entry, std::vector<model::Decision>& out);

  ConservativeBackfillParams params_;
  OrderedQueue queue_;
  AvailabilityProfile profile_;
  bool planned_ = false; ///< a full pass has built the profile the arrival-only rounds extend
  PassEnd last_end_ = PassEnd::QUEUE_EXHAUSTED;
  QueueKey last_examined_{};
  std::map<model::JobId, double> reserved_at_;
  std::uint32_t min_unplaceable_ = std::numeric_limits<std::uint32_t>::max();
};

std::unique_ptr<Scheduler> make_conservative_backfill(const ConservativeBackfillParams& params);

} // namespace acme::policies
