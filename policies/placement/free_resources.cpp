#include "acme/model/assert.hpp"
#include "acme/policies/placement/placement_policy.hpp"

namespace acme::policies {

void FreeResources::begin_round(const model::ClusterView& view) {
  view_ = &view;
  if (taken_.size() != view.shape().nodes) {
    taken_.assign(view.shape().nodes, 0);
  }
  for (model::NodeId node : touched_) {
    taken_[model::to_index(node)] = 0;
  }
  touched_.clear();
  taken_total_ = 0;
  cpus_taken_ = 0;
}

std::uint32_t FreeResources::free_gpus(model::NodeId node) const {
  if (!view_->is_up(node)) {
    return 0;
  }
  return view_->free_gpus(node) - taken_[model::to_index(node)];
}

void FreeResources::take(const model::Placement& placement) {
  for (const auto& share : placement) {
    auto n = model::to_index(share.node);
    ACME_ASSERT(free_gpus(share.node) >= share.gpus, "a round never promises more GPUs than are free");
    if (taken_[n] == 0 && share.gpus > 0) {
      touched_.push_back(share.node);
    }
    taken_[n] += share.gpus;
    taken_total_ += share.gpus;
  }
}

std::optional<model::NodeId> lowest_node_with(const FreeResources& free, std::uint32_t gpus) {
  const auto& view = free.view();
  std::size_t best = model::NodeBitset::NPOS;
  for (std::uint32_t k = gpus; k <= view.shape().gpus_per_node; ++k) {
    const auto& bucket = view.nodes_with_free_gpus(k);
    for (std::size_t n = bucket.find_first(); n != model::NodeBitset::NPOS && n < best; n = bucket.find_next(n + 1)) {
      if (!free.is_touched(model::NodeId{static_cast<std::uint32_t>(n)})) {
        best = n;
        break;
      }
    }
  }
  for (model::NodeId node : free.touched()) {
    if (free.free_gpus(node) >= gpus && model::to_index(node) < best) {
      best = model::to_index(node);
    }
  }
  if (best == model::NodeBitset::NPOS) {
    return std::nullopt;
  }
  return model::NodeId{static_cast<std::uint32_t>(best)};
}

std::optional<model::NodeId> tightest_node_with(const FreeResources& free, std::uint32_t gpus) {
  const auto& view = free.view();
  std::optional<model::NodeId> best;
  std::uint32_t best_free = view.shape().gpus_per_node + 1;
  for (std::uint32_t k = gpus; k <= view.shape().gpus_per_node && !best; ++k) {
    const auto& bucket = view.nodes_with_free_gpus(k);
    for (std::size_t n = bucket.find_first(); n != model::NodeBitset::NPOS; n = bucket.find_next(n + 1)) {
      model::NodeId node{static_cast<std::uint32_t>(n)};
      if (!free.is_touched(node)) {
        best = node;
        best_free = k;
        break;
      }
    }
  }
  for (model::NodeId node : free.touched()) {
    std::uint32_t f = free.free_gpus(node);
    if (f >= gpus && (f < best_free || (f == best_free && best && node < *best))) {
      best = node;
      best_free = f;
    }
  }
  return best;
}

std::vector<model::NodeId> idle_nodes(const FreeResources& free) {
  const auto& view = free.view();
  const auto& bucket = view.nodes_with_free_gpus(view.shape().gpus_per_node);
  std::vector<model::NodeId> out;
  out.reserve(bucket.count());
  for (std::size_t n = bucket.find_first(); n != model::NodeBitset::NPOS; n = bucket.find_next(n + 1)) {
    model::NodeId node{static_cast<std::uint32_t>(n)};
    if (!free.is_touched(node)) {
      out.push_back(node);
    }
  }
  return out;
}

model::Placement whole_nodes(const std::vector<model::NodeId>& nodes, std::uint32_t gpus_per_node) {
  model::Placement placement;
  placement.reserve(nodes.size());
  for (model::NodeId node : nodes) {
    placement.push_back({node, gpus_per_node});
  }
  return placement;
}

} // namespace acme::policies
