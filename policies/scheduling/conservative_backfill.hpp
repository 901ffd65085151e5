#pragma once

#include <map>
#include <memory>
#include <vector>

#include "policies/param_table.hpp"
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

  static const ParamTable<ConservativeBackfillParams>& table();
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
  PassQueue& gpu_queue() override { return queue_; }
  ArrivalsRound on_arrivals(const model::ClusterView& cluster, const std::vector<QueueKey>& arrivals) override;
  void begin_pass(PassKind kind) override;
  Step decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) override;
  void on_job_started(const RunningJob& job) override { reserved_at_.erase(job.id); }

private:
  OrderedQueue queue_;
  AvailabilityProfile profile_;
  bool planned_ = false; ///< a full pass has built the profile the arrival-only rounds extend
  QueueKey last_examined_{};
  std::map<model::JobId, double> reserved_at_;
};

std::unique_ptr<Scheduler> make_conservative_backfill(const ConservativeBackfillParams& params);

} // namespace acme::policies
