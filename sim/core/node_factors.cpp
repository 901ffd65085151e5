#include "sim/core/node_factors.hpp"

#include <cmath>
#include <numeric>
#include <utility>

namespace acme::core {

NodeFactors draw_node_factors(const config::NodeFactorConfig& config, const std::vector<std::uint32_t>& nodes,
                              model::Rng& rng) {
  NodeFactors factors;
  if (config.lemon_share <= 0.0 || config.lemon_factor == 1.0) {
    return factors;
  }
  for (std::uint32_t count : nodes) {
    std::vector<double>& cluster = factors.emplace_back(count, 1.0);
    auto lemons = static_cast<std::uint32_t>(std::lround(config.lemon_share * count));
    std::vector<std::uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0u);
    // A partial Fisher-Yates shuffle: the first `lemons` entries are a uniform sample without repeats.
    for (std::uint32_t i = 0; i < lemons && i < count; ++i) {
      std::uint32_t j = i + static_cast<std::uint32_t>(rng.below(count - i));
      std::swap(order[i], order[j]);
      cluster[order[i]] = config.lemon_factor;
    }
  }
  return factors;
}

} // namespace acme::core
