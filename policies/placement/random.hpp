#pragma once

#include <cstdint>
#include <string_view>

#include "policies/placement/placement_policy.hpp"
#include "sim/model/rng.hpp"

namespace acme::policies {

/// Baseline: a job of up to one node goes on a node drawn uniformly among those with room; a multi-node
/// job on idle nodes drawn uniformly (without replacement) until they hold its GPUs; a fractional job on
/// a free GPU of a node drawn uniformly, else on the first shared GPU with room. Deterministic for a
/// seed: its stream is model::Rng(seed, "placement/" + cluster).
class RandomPlacement final : public PlacementPolicy {
public:
  RandomPlacement(std::uint64_t seed, std::string_view cluster);
  std::optional<model::Placement> place(const model::JobSpec& job, const FreeResources& free) override;

private:
  std::optional<model::NodeId> random_node_with(const FreeResources& free, std::uint32_t gpus);
  std::optional<model::Placement> random_gang(const FreeResources& free, std::uint32_t gpus);

  model::Rng rng_;
};

} // namespace acme::policies
