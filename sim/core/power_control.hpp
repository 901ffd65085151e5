#pragma once

#include <memory>
#include <vector>

#include "policies/power/power_policy.hpp"
#include "sim/core/cluster_runtime.hpp"
#include "sim/core/node_availability.hpp"
#include "sim/core/power_meter.hpp"
#include "sim/core/timer_service.hpp"

namespace acme::core {

/// Runs each cluster's power policy (policies/power/): after a round of the cluster's scheduler, and at
/// the time the policy asked for, it tells the policy which nodes became idle and carries out its
/// decisions. A node switched off goes out of service (NodeAvailability, reason "power off"; its
/// scheduler sees NodeDown and the view's power_of() OFF) and draws standby power; a boot draws idle
/// power for the policy's boot time, then the node is back in service (NodeUp). A job that needs the
/// node waits in its queue meanwhile. Clusters whose policy never switches nodes cost nothing.
class PowerControl {
public:
  /// `policies`: one per cluster, in cluster order.
  PowerControl(std::vector<std::unique_ptr<policies::PowerPolicy>> policies, TimerService& timer, JobTable& table,
               NodeAvailability& nodes, PowerMeter& meter);

  /// The cluster's scheduler ran a round at this instant (its jobs or nodes changed).
  void after_round(model::ClusterId cluster) {
    if (managed_[model::to_index(cluster)]) {
      due_[model::to_index(cluster)] = true;
    }
  }
  /// Calls the policies of the clusters that changed or asked to be called now, and carries out
  /// their decisions.
  void decide();
  /// NodeBooted: the node is in service.
  void on(const NodeBooted& e);
  /// PowerCheck: the policy asked to be called now (stale ones are ignored).
  void on(const PowerCheck& e);

private:
  void decide(model::ClusterId cluster);
  /// Nodes idle now that were not at the last call, lowest index first.
  std::vector<model::NodeId> newly_idle(std::size_t c);
  void switch_off(model::ClusterId cluster, model::NodeId node);
  void boot(model::ClusterId cluster, model::NodeId node);

  std::vector<std::unique_ptr<policies::PowerPolicy>> policies_;
  TimerService& timer_;
  JobTable& table_;
  NodeAvailability& nodes_;
  PowerMeter& meter_;
  std::vector<bool> managed_;                  ///< the policy switches nodes
  std::vector<bool> due_;                      ///< call the policy at this instant
  std::vector<double> next_check_s_;           ///< the call-back asked for (infinity: none)
  std::vector<model::NodeBitset> idle_before_; ///< idle nodes at the last call
};

} // namespace acme::core
