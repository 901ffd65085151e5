#pragma once

#include "policies/scheduling/ordered_queue.hpp"
#include "policies/scheduling/queue_scheduler.hpp"

namespace acme::policies {

/// Strict first-come first-served: jobs start in submission order; when the oldest waiting job does
/// not fit, nothing behind it starts (no backfilling). The shortest complete policy on the
/// QueueScheduler skeleton, and the one to copy: a queue (submission order, the skeleton's default
/// key), a decision for one job, and what a round with only arrivals needs.
class FifoScheduler final : public QueueScheduler {
protected:
  PassQueue& gpu_queue() override { return queue_; }
  /// Starts the job when its GPUs are free; otherwise it blocks the queue.
  Step decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) override;
  /// Arrivals behind a blocked oldest job wait too; anything else gets a full pass.
  ArrivalsRound on_arrivals(const model::ClusterView& cluster, const std::vector<QueueKey>& arrivals) override;

private:
  OrderedQueue queue_;
};

} // namespace acme::policies
