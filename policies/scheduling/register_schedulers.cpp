// The scheduling family: one line per policy. A new scheduler adds its header and one add_policy call.
#include "policies/builtin.hpp"
#include "policies/param_table.hpp"
#include "policies/scheduling/conservative_backfill.hpp"
#include "policies/scheduling/easy_backfill.hpp"
#include "policies/scheduling/fifo.hpp"
#include "policies/scheduling/kube_quota.hpp"
#include "policies/scheduling/las.hpp"
#include "policies/scheduling/priority.hpp"
#include "policies/scheduling/quota.hpp"
#include "policies/scheduling/sjf.hpp"

namespace acme::policies {

void register_builtin_schedulers(Registry<Scheduler>& r) {
  add_policy<NoParams>(r, "fifo", "strict first-come first-served; the oldest job blocks the queue until it fits",
                       [](const NoParams&, const PolicyContext&) { return std::make_unique<FifoScheduler>(); });
  add_policy<EasyBackfillParams>(r, "easy_backfill",
                                 "FIFO with EASY backfilling: later jobs start when they do not delay the first "
                                 "blocked job's reservation",
                                 [](const auto& p, const PolicyContext&) { return make_easy_backfill(p); });
  add_policy<ConservativeBackfillParams>(
      r, "conservative_backfill",
      "FIFO with conservative backfilling: every examined job gets a reservation; "
      "later jobs start only when they delay none",
      [](const auto& p, const PolicyContext&) { return make_conservative_backfill(p); });
  add_policy<SjfParams>(r, "sjf",
                        "shortest estimated job first, non-preemptive; every job that fits starts, shortest first",
                        [](const auto& p, const PolicyContext&) { return make_sjf(p); });
  add_policy<PrioritySchedulerParams>(
      r, "priority", "Slurm-like multifactor priority (job class, age, fair share per user) with EASY backfilling",
      [](const auto& p, const PolicyContext&) { return make_priority(p); });
  add_policy<QuotaSchedulerParams>(r, "quota",
                                   "GPU quotas per job class or user (reservations) with borrowing and preempt-back, "
                                   "over a priority or FIFO queue with EASY backfilling (Seren)",
                                   [](const auto& p, const PolicyContext&) { return make_quota(p); });
  add_policy<LasParams>(r, "las",
                        "Tiresias-style 2D least-attained-service: queues by attained GPU-time, preemption of lower "
                        "queues, starvation promotion",
                        [](const auto& p, const PolicyContext&) { return make_las(p); });
  add_policy<KubeQuotaParams>(r, "kube_quota",
                              "Kueue/Volcano-like queues per job type or user with GPU quotas, gang admission, "
                              "borrowing and reclaim (Kalos)",
                              [](const auto& p, const PolicyContext&) { return make_kube_quota(p); });
}

} // namespace acme::policies
