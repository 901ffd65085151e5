#pragma once

#include <memory>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/group_queues.hpp"
#include "policies/scheduling/policy_params.hpp"
#include "policies/scheduling/queue_scheduler.hpp"
#include "policies/scheduling/quota_book.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// Kueue/Volcano-style queues for Kubernetes-like clusters (Kalos).
struct KubeQuotaParams {
  QuotaParams quota;        ///< nominal quota per queue (group: job type or user), borrowing, reclaim
  bool strict_fifo = false; ///< Kueue's StrictFIFO; default BestEffortFIFO (Kueue's default queueingStrategy)
  std::uint32_t queue_depth = DEFAULT_QUEUE_DEPTH;

  static const ParamTable<KubeQuotaParams>& table();
};

/// One FIFO queue per group with a nominal GPU quota. A job is admitted whole or not at all (gang
/// admission: all its pods get their GPUs at once, or it keeps waiting); admission takes the queues'
/// heads oldest first. Inside a queue's quota a job runs as an owner; beyond it, it borrows idle quota of
/// the other queues (when borrowing) and may be preempted back when an owner needs its quota (reclaim).
/// With strict FIFO a queue's head that cannot be admitted blocks its queue; with best-effort FIFO the
/// jobs behind it may go first.
class KubeQuotaScheduler final : public QueueScheduler {
public:
  explicit KubeQuotaScheduler(KubeQuotaParams params);

protected:
  PassQueue& gpu_queue() override { return queues_; }
  Step decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) override;

private:
  KubeQuotaParams params_;
  GroupQueues queues_;
};

std::unique_ptr<Scheduler> make_kube_quota(const KubeQuotaParams& params);

} // namespace acme::policies
