#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/core/fabric_service.hpp"
#include "sim/core/timer_service.hpp"
#include "sim/model/cluster_rngs.hpp"
#include "sim/model/rng.hpp"

namespace acme::core {

/// Failures of leaf-to-spine links (`failures.spine_link`, off unless given a rate): each link fails at
/// its rate and is repaired after a drawn time; while down, its leaf has that much less uplink capacity
/// and the flows and transfers through it are re-shared. No node goes down. Draws come from their own
/// random stream, so turning them on does not move any other failure.
class LinkFailures {
public:
  /// `uplinks_per_leaf` and `leaves` per cluster.
  LinkFailures(const config::FailureConfig& config, std::vector<std::uint32_t> uplinks_per_leaf,
               std::vector<std::uint32_t> leaves, TimerService& timer, model::ClusterRngs& rng, FabricService& fabric);

  /// Schedules every leaf's first link failure (when the rate is positive).
  void start();
  void on(const SpineLinkFailed& event);
  void on(const SpineLinkRepaired& event);
  /// Links down now in a cluster's leaf.
  std::uint32_t down(model::ClusterId cluster, std::uint32_t leaf) const {
    return down_[model::to_index(cluster)][leaf];
  }

private:
  void draw_next(model::ClusterId cluster, std::uint32_t leaf);

  const config::FailureConfig& config_;
  std::vector<std::uint32_t> uplinks_;
  TimerService& timer_;
  model::ClusterRngs& rng_;
  FabricService& fabric_;
  std::vector<std::vector<std::uint32_t>> down_;       ///< per cluster, per leaf: links down
  std::vector<std::vector<std::uint32_t>> generation_; ///< per cluster, per leaf: invalidates older draws
};

} // namespace acme::core
