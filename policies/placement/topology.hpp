#pragma once

#include "policies/placement/placement_policy.hpp"

namespace acme::policies {

/// Topology-aware placement over the leaf switches of the fabric (ClusterShape::leaf_of_node). A
/// multi-node job takes idle nodes under as few leaves as possible: one leaf when one has room (the leaf
/// with the fewest idle GPUs that still holds it, keeping large leaves whole), else the leaves with the
/// most idle GPUs, the last one chosen by best fit. A job of up to one node goes on the node with the
/// fewest free GPUs that holds it (best fit), preferring nodes under leaves with fewer idle nodes (leaves
/// already partly used), then the lowest index. A fractional job shares a GPU (best fit) or opens one on
/// the node this rule picks.
class TopologyPlacement final : public PlacementPolicy {
public:
  std::optional<model::Placement> place(const model::JobSpec& job, const FreeResources& free) override;
};

/// The node TopologyPlacement picks for a job of `gpus` GPUs (up to one node), or nullopt.
std::optional<model::NodeId> topology_node_with(const FreeResources& free, std::uint32_t gpus);
/// Idle nodes for a gang job of `gpus` GPUs under the fewest leaves, or nullopt.
std::optional<model::Placement> topology_gang(const FreeResources& free, std::uint32_t gpus);

} // namespace acme::policies
