#include "sim/config/section_docs.hpp"

#include "sim/config/config.hpp"
#include "sim/config/faults.hpp"
#include "sim/config/param_table.hpp"
#include "sim/config/power_config.hpp"
#include "sim/config/schema_team_plan.hpp"

namespace acme::config {

std::vector<SectionDoc> section_docs() {
  return {
      {"failures.node_factor", "nodes that fail more often than the rest: a share of lemon nodes at k times the rate",
       NodeFactorConfig::table().docs()},
      {"failures.health_check",
       "a periodic check of the idle nodes that finds latent faults (off unless given; assumptions)",
       HealthCheckConfig::table().docs()},
      {"failures.repair",
       "the repair pipeline: automatic repair, escalation to a person, repairs that leave the fault (assumptions)",
       RepairConfig::table().docs()},
      {"failures.hazard",
       "the law of a node's time between failures: a Weibull renewal process at the node's mean rate",
       HazardConfig::table().docs()},
      {"failures.slow", "fail-slow nodes: a job computes at its slowest node's pace (off by default)",
       SlowConfig::table().docs()},
      {"failures.group",
       "failures that take a group of consecutive nodes at once, a rack or power domain (off by "
       "default)",
       GroupFailureConfig::table().docs()},
      {"preemption", "what preempting a running job costs", PreemptionConfig::table().docs()},
      {"network", "training traffic on the fabric and the training assumptions that size it",
       NetworkModelConfig::table().docs()},
      {"output", "what a run writes besides summary.json", OutputConfig::table().docs()},
      {"power.node", "what a GPU server draws besides its GPUs, rising with its GPUs' load (paper, Seren IPMI)",
       NodeBasePower::table().docs()},
      {"power.cpu_server", "the servers of a cluster's CPU pool (paper: median 546 W)", CpuServerPower::table().docs()},
      {"interconnect", "the link between the clusters' spine layers", InterconnectConfig::table().docs()},
      {"clusters[].gpu", "the GPUs of a cluster's nodes (default: Acme's A100-SXM-80GB)", GpuConfig::table().docs()},
      {"clusters[].storage", "the cluster's shared storage system (checkpoints, model loads, datasets)",
       StorageConfig::table().docs()},
      {"clusters[].pods",
       "Kubernetes' path from admission to running pods: binding throughput and container image pulls (all off by "
       "default)",
       PodConfig::table().docs()},
      {"clusters[].team_plan",
       "a team that submits its jobs of some types only when its GPU budget has room (off unless given)",
       TeamPlanConfig::table().docs()},
      {"recovery.quarantine", "the lemon-node rule: a node that fails repeatedly stays out once repaired (Meta RSC)",
       QuarantineConfig::table().docs()},
      {"recovery.hosts",
       "where a restart's replacement nodes come from once the warm standbys (recovery.spare_nodes) are spent",
       HostsConfig::table().docs()},
  };
}

} // namespace acme::config
