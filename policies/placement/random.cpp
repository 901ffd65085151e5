#include "policies/placement/random.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace acme::policies {

RandomPlacement::RandomPlacement(std::uint64_t seed, std::string_view cluster)
    : rng_(seed, "placement/" + std::string(cluster)) {}

std::optional<model::NodeId> RandomPlacement::random_node_with(const FreeResources& free, std::uint32_t gpus) {
  const auto& view = free.view();
  std::vector<model::NodeId> candidates;
  for (std::uint32_t k = std::max(gpus, 1U); k <= view.shape().gpus_per_node; ++k) {
    const auto& bucket = view.nodes_with_free_gpus(k);
    for (std::size_t n = bucket.find_first(); n != model::NodeBitset::NPOS; n = bucket.find_next(n + 1)) {
      model::NodeId node{static_cast<std::uint32_t>(n)};
      if (!free.is_touched(node)) {
        candidates.push_back(node);
      }
    }
  }
  for (model::NodeId node : free.touched()) {
    if (free.free_gpus(node) >= std::max(gpus, 1U)) {
      candidates.push_back(node);
    }
  }
  if (candidates.empty()) {
    return std::nullopt;
  }
  std::sort(candidates.begin(), candidates.end()); // the draw must not depend on bucket order
  return candidates[rng_.below(candidates.size())];
}

std::optional<model::Placement> RandomPlacement::random_gang(const FreeResources& free, std::uint32_t gpus) {
  std::vector<model::NodeId> idle = idle_nodes(free);
  const auto& view = free.view();
  std::uint64_t total = 0;
  for (model::NodeId node : idle) {
    total += view.gpus_of(node);
  }
  if (total < gpus) {
    return std::nullopt;
  }
  model::Placement placement;
  std::uint64_t held = 0;
  for (std::size_t i = 0; held < gpus; ++i) {
    std::swap(idle[i], idle[i + rng_.below(idle.size() - i)]); // partial Fisher-Yates
    placement.push_back({idle[i], view.gpus_of(idle[i])});
    held += view.gpus_of(idle[i]);
  }
  std::sort(placement.begin(), placement.end(),
            [](const model::NodeShare& a, const model::NodeShare& b) { return a.node < b.node; });
  return placement;
}

std::optional<model::Placement> RandomPlacement::place(const model::JobSpec& job, const FreeResources& free) {
  if (job.is_fractional()) {
    if (auto node = random_node_with(free, 1)) {
      return model::Placement{open_shared_gpu(free, *node, job.gpu_milli)};
    }
    if (auto share = shared_gpu_with_room(free, job.gpu_milli, ShareFit::FIRST)) {
      return model::Placement{*share};
    }
    return std::nullopt;
  }
  if (job.gpus <= free.view().shape().gpus_per_node) {
    auto node = random_node_with(free, job.gpus);
    if (!node) {
      return std::nullopt;
    }
    return model::Placement{{*node, job.gpus}};
  }
  return random_gang(free, job.gpus);
}

} // namespace acme::policies
