// The failure sections declared in parameter tables (failures.repair, hazard, slow, group): their keys,
// bounds, defaults and documentation, which parse them and generate docs/config_reference.md.
#include <limits>
#include <string>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/model/limits.hpp"

namespace acme::config {

const ParamTable<RepairConfig>& RepairConfig::table() {
  using P = RepairConfig;
  static const ParamTable<P> t{
      number_param("escalate_share", &P::escalate_share,
                   "share of automatic repairs that cannot finish and go to a person (manual repair)", Bounds::share()),
      distribution_param("manual", &P::manual, "time of a manual repair, after the automatic one"),
      number_param("fix_share", &P::fix_share,
                   "share of repairs that fix the node; the rest return it with its fault (latent)", Bounds::share())};
  return t;
}

const ParamTable<HazardConfig>& HazardConfig::table() {
  static const ParamTable<HazardConfig> t{number_param(
      "shape", &HazardConfig::shape,
      "Weibull shape of a node's time between failures, at its rate's mean (1: exponential; < 1: more failures "
      "just after a repair; > 1: wear-out)",
      Bounds{0.1, 10.0})};
  return t;
}

const ParamTable<SlowConfig>& SlowConfig::table() {
  using P = SlowConfig;
  static const ParamTable<P> t{
      number_param("rate_per_1000_node_days", &P::rate_per_1000_node_days,
                   "slow periods per 1,000 node-days (0: off; assumption)",
                   Bounds{0.0, model::limits::MAX_FAILURES_PER_1000_NODE_DAYS}),
      number_param("speed", &P::speed, "share of its pace a slow node computes at (assumption)",
                   Bounds{0.0, 1.0, true}),
      distribution_param("duration", &P::duration, "how long a node stays slow (assumption: 6 hours median)"),
      duration_param("evict_after", &P::evict_after_s,
                     "time a slow node runs a job before it is evicted for the rest of its slow period, its jobs "
                     "failing as category slow (0: never; assumption)")};
  return t;
}

const ParamTable<GroupFailureConfig>& GroupFailureConfig::table() {
  using P = GroupFailureConfig;
  static const ParamTable<P> t{
      count_param("size", &P::size, "nodes per group (a rack or power domain: consecutive nodes)", 1,
                  model::limits::MAX_NODES_PER_CLUSTER),
      number_param("rate_per_1000_group_days", &P::rate_per_1000_group_days,
                   "group failures per 1,000 group-days (0: off; assumption)",
                   Bounds{0.0, model::limits::MAX_FAILURES_PER_1000_NODE_DAYS}),
      Param<P>{"category", "the node category its nodes fail with (one of failures.categories)",
               [](const Node& v, P& p) { p.category = v.as_string(); }, [](const P& p) { return p.category; }},
      distribution_param("repair", &P::repair, "time until the group is back (assumption: 4 hours median)")};
  return t;
}

const ParamTable<NodeFactorConfig>& NodeFactorConfig::table() {
  using P = NodeFactorConfig;
  static const ParamTable<P> t{
      number_param("lemon_share", &P::lemon_share,
                   "share of each cluster's nodes that are lemons (round(share x nodes), drawn from the seed)",
                   Bounds::share()),
      // At most 1,000: a node failing that much more often than the rest fails within hours of any repair.
      number_param("lemon_factor", &P::lemon_factor, "a lemon's failure rate over the base rate (Meta RSC's lemons)",
                   Bounds{1.0, 1000.0})};
  return t;
}

const ParamTable<HealthCheckConfig>& HealthCheckConfig::table() {
  using P = HealthCheckConfig;
  static const ParamTable<P> t =
      ParamTable<P>{duration_param("interval", &P::interval_s,
                                   "time between checks of each cluster's latent faults (required)",
                                   Bounds{60.0, std::numeric_limits<double>::max()}),
                    duration_param("duration", &P::duration_s, "time from a check's start until a found node goes out"),
                    number_param("coverage", &P::coverage, "share of latent faults a check finds", Bounds::share())}
          .check([](const Node& node, const P&) {
            if (node.is_map() && !node["interval"].is_defined()) {
              node.fail("missing key \"interval\": the time between checks, e.g. 6h");
            }
          });
  return t;
}

const ParamTable<PreemptionConfig>& PreemptionConfig::table() {
  using P = PreemptionConfig;
  static const ParamTable<P> t{
      flag_param("save_on_preempt", &P::save_on_preempt,
                 "a preempted job writes a checkpoint before it releases its GPUs (else it loses its work since the "
                 "last)"),
      distribution_param("fallback_save", &P::fallback_save, "save cost of a job without a checkpoint model"),
      distribution_param("fallback_restore", &P::fallback_restore, "restore cost of a job without a checkpoint model")};
  return t;
}

/// The category `group.category` names, or a located error listing the categories.
void resolve_group_category(const Node& group, GroupFailureConfig& g, const std::vector<FailureCategoryConfig>& cats) {
  std::string names;
  for (std::size_t i = 0; i < cats.size(); ++i) {
    if (cats[i].name == g.category) {
      g.category_index = static_cast<std::uint32_t>(i);
      return;
    }
    names += (i == 0 ? "" : ", ") + cats[i].name;
  }
  Node at = group["category"];
  (at.is_defined() ? at : group).fail("unknown failure category \"" + g.category + "\"; expected one of: " + names);
}

} // namespace acme::config
