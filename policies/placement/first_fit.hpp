#pragma once

#include "policies/placement/placement_policy.hpp"

namespace acme::policies {

/// Lowest-numbered nodes that fit: a job of up to one node goes on the first node with enough free
/// GPUs; a multi-node job takes the first idle nodes.
class FirstFitPlacement final : public PlacementPolicy {
public:
  std::optional<model::Placement> place(const model::JobSpec& job, const FreeResources& free) override;
};

} // namespace acme::policies
