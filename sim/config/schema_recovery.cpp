// The `recovery:` section: the recovery policy, warm standbys, where replacement hosts come from and
// the lemon-node quarantine.
#include <string>

#include "sim/config/faults.hpp"
#include "sim/config/schema_team_plan.hpp"
#include "sim/model/limits.hpp"

namespace acme::config {
const ParamTable<QuarantineConfig>& QuarantineConfig::table() {
  using P = QuarantineConfig;
  static const ParamTable<P> t{
      count_param("after_failures", &P::after_failures, "failures within the window that quarantine a node (0: off)",
                  0),
      duration_param("window", &P::window_s, "the window the failures are counted in (assumption: a week)"),
      duration_param("release_after", &P::release_after_s,
                     "time a quarantined node stays out once repaired (assumption: a month)")};
  return t;
}

const ParamTable<HostsConfig>& HostsConfig::table() {
  using P = HostsConfig;
  static const ParamTable<P> t{
      distribution_param("selection", &P::selection,
                         "time to choose new hosts when the warm standbys do not cover a restart (assumption)"),
      job_types_param("preemptible", &P::preemptible,
                      "running jobs a restart preempts at once, without a save, for nodes when none is free "
                      "(their lost work is second-order loss; empty: the restart waits for free nodes)")};
  return t;
}

RecoveryConfig parse_recovery(const Node& node) {
  RecoveryConfig r;
  r.policy = parse_policy(node.is_defined() ? node["policy"] : node, "recovery", "manual");
  if (!node.is_defined()) {
    return r;
  }
  node.expect_keys({"policy", "applies_to", "spare_nodes", "quarantine", "hosts"});
  r.applies_to = parse_job_types(node["applies_to"], r.applies_to);
  if (Node spares = node["spare_nodes"]; spares.is_defined()) {
    r.spare_nodes = spares.as_count_or_zero(model::limits::MAX_NODES_PER_CLUSTER);
    r.spare_nodes_where = spares.location();
  }
  r.quarantine = QuarantineConfig::table().parse_section(node["quarantine"], r.quarantine);
  r.hosts = HostsConfig::table().parse_section(node["hosts"], r.hosts);
  return r;
}

} // namespace acme::config
