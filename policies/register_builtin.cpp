#include "policies/builtin.hpp"
#include "policies/placement/first_fit.hpp"
#include "policies/placement/pack.hpp"
#include "policies/placement/random.hpp"
#include "policies/placement/topology.hpp"
#include "policies/scheduling/conservative_backfill.hpp"
#include "policies/scheduling/easy_backfill.hpp"
#include "policies/scheduling/fifo.hpp"
#include "policies/scheduling/kube_quota.hpp"
#include "policies/scheduling/las.hpp"
#include "policies/scheduling/priority.hpp"
#include "policies/scheduling/quota.hpp"
#include "policies/scheduling/sjf.hpp"

namespace acme::policies {

void register_builtin_schedulers(Registry<Scheduler>& registry) {
  registry.add("fifo", "strict first-come first-served; the oldest job blocks the queue until it fits", {},
               [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {});
                 return std::make_unique<FifoScheduler>();
               });
  registry.add("easy_backfill",
               "FIFO with EASY backfilling: later jobs start when they do not delay the first blocked job's "
               "reservation",
               EasyBackfillParams::docs(), [](const config::Node& params, const PolicyContext&) {
                 return make_easy_backfill(EasyBackfillParams::parse(params));
               });
  registry.add("conservative_backfill",
               "FIFO with conservative backfilling: every examined job gets a reservation; later jobs start "
               "only when they delay none",
               ConservativeBackfillParams::docs(), [](const config::Node& params, const PolicyContext&) {
                 return make_conservative_backfill(ConservativeBackfillParams::parse(params));
               });
  registry.add("sjf", "shortest estimated job first, non-preemptive; every job that fits starts, shortest first",
               SjfParams::docs(),
               [](const config::Node& params, const PolicyContext&) { return make_sjf(SjfParams::parse(params)); });
  registry.add("priority",
               "Slurm-like multifactor priority (job class, age, fair share per user) with EASY backfilling",
               PrioritySchedulerParams::docs(), [](const config::Node& params, const PolicyContext&) {
                 return make_priority(PrioritySchedulerParams::parse(params));
               });
  registry.add("quota",
               "GPU quotas per job class or user (reservations) with borrowing and preempt-back, over a "
               "priority or FIFO queue with EASY backfilling (Seren)",
               QuotaSchedulerParams::docs(), [](const config::Node& params, const PolicyContext&) {
                 return make_quota(QuotaSchedulerParams::parse(params));
               });
  registry.add("las",
               "Tiresias-style 2D least-attained-service: queues by attained GPU-time, preemption of lower "
               "queues, starvation promotion",
               LasParams::docs(),
               [](const config::Node& params, const PolicyContext&) { return make_las(LasParams::parse(params)); });
  registry.add("kube_quota",
               "Kueue/Volcano-like queues per job type or user with GPU quotas, gang admission, borrowing and "
               "reclaim (Kalos)",
               KubeQuotaParams::docs(), [](const config::Node& params, const PolicyContext&) {
                 return make_kube_quota(KubeQuotaParams::parse(params));
               });
}

void register_builtin_placements(Registry<PlacementPolicy>& registry) {
  registry.add("first_fit", "lowest-numbered node(s) that fit", {},
               [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {});
                 return std::make_unique<FirstFitPlacement>();
               });
  registry.add("pack", "jobs of up to one node on the fullest node that fits (NVLink domain); gang jobs on whole nodes",
               {}, [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {});
                 return std::make_unique<PackPlacement>();
               });
  registry.add("topology",
               "multi-node jobs under as few leaf switches as possible; smaller jobs best fit, preferring "
               "partly used leaves",
               {}, [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {});
                 return std::make_unique<TopologyPlacement>();
               });
  registry.add("random", "uniformly random node(s) that fit (baseline), seeded from the run seed", {},
               [](const config::Node& params, const PolicyContext& context) {
                 expect_policy_keys(params, {});
                 return std::make_unique<RandomPlacement>(context.seed, context.cluster);
               });
}

PolicyRegistries make_builtin_registries() {
  PolicyRegistries r;
  register_builtin_schedulers(r.schedulers);
  register_builtin_placements(r.placements);
  register_builtin_checkpoint_policies(r.checkpoints);
  register_builtin_recovery_policies(r.recoveries);
  register_builtin_eval_dispatch(r.eval_dispatches);
  return r;
}

} // namespace acme::policies
