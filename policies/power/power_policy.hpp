#pragma once

#include <limits>
#include <span>
#include <vector>

#include "sim/model/cluster_view.hpp"
#include "sim/model/ids.hpp"

namespace acme::policies {

/// What a power policy decides at one instant for its cluster.
struct PowerDecision {
  std::vector<model::NodeId> power_off; ///< idle nodes (up, ON, no GPU in use) to switch off now
  std::vector<model::NodeId> boot;      ///< OFF nodes to switch on; each is in service after boot_time_s()
  /// Call again at this simulated time even if nothing happens in the cluster (infinity: no need).
  double call_back_at_s = std::numeric_limits<double>::infinity();
};

/// Decides which nodes of a cluster are powered off and when they boot again (Helios' CES, Batsim's
/// energy-aware schedulers). Events in, decisions out: it reads the cluster's read-only view, in which
/// the nodes it switched off are out of service (is_up() false) with power_of() OFF or BOOTING, so
/// schedulers never place jobs on them. Deterministic; may keep private state.
class PowerPolicy {
public:
  virtual ~PowerPolicy() = default;
  /// false: the policy never switches a node (the engine never calls it; nodes stay on).
  virtual bool manages_nodes() const { return true; }
  /// Seconds from a boot decision until the node is in service (a job that needs it waits that long).
  virtual double boot_time_s() const = 0;
  /// Called after the scheduler's round at each instant where the cluster's jobs or nodes changed,
  /// and at the time it asked to be called back. `became_idle`: nodes that became idle (up, ON, every
  /// GPU free) since the last call, lowest index first; a node may have been taken again since.
  virtual PowerDecision on_instant(std::span<const model::NodeId> became_idle, const model::ClusterView& view) = 0;
};

/// `none`: every node stays on.
class AlwaysOn final : public PowerPolicy {
public:
  bool manages_nodes() const override { return false; }
  double boot_time_s() const override { return 0.0; }
  PowerDecision on_instant(std::span<const model::NodeId>, const model::ClusterView&) override { return {}; }
};

} // namespace acme::policies
