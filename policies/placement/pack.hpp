#pragma once

#include "policies/placement/placement_policy.hpp"

namespace acme::policies {

/// Packing: a job of up to one node goes inside one node's NVLink domain on the node with the fewest
/// free GPUs that still fit it (best fit), keeping whole nodes free for gang jobs; a multi-node job
/// takes the fewest whole nodes.
class PackPlacement final : public PlacementPolicy {
public:
  std::optional<model::Placement> place(const model::JobSpec& job, const FreeResources& free) override;
};

} // namespace acme::policies
