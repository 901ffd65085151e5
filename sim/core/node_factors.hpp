#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/model/rng.hpp"

namespace acme::core {

/// Per cluster, per node: the factor on the base failure rate (1 for an ordinary node, lemon_factor for a
/// lemon). Empty when the config makes every node alike, so runs without a mixture draw nothing.
using NodeFactors = std::vector<std::vector<double>>;

/// Picks each cluster's lemons: round(lemon_share x nodes) distinct nodes, uniformly, from `rng` (its own
/// stream, so the failure draws of every other node are the same with or without a mixture).
NodeFactors draw_node_factors(const config::NodeFactorConfig& config, const std::vector<std::uint32_t>& nodes,
                              model::Rng& rng);

} // namespace acme::core
