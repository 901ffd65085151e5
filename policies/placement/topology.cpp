#include "policies/placement/topology.hpp"

#include <algorithm>
#include <limits>

namespace acme::policies {
namespace {

/// Idle nodes not touched this round, per leaf (lowest index first), with their GPUs.
struct IdleByLeaf {
  std::vector<std::vector<model::NodeId>> nodes;
  std::vector<std::uint64_t> gpus;
};

IdleByLeaf idle_by_leaf(const FreeResources& free) {
  const auto& view = free.view();
  IdleByLeaf out;
  out.nodes.resize(std::max<std::uint32_t>(view.shape().leaves, 1));
  out.gpus.assign(out.nodes.size(), 0);
  const auto& idle = view.idle_node_set();
  for (std::size_t n = idle.find_first(); n != model::NodeBitset::NPOS; n = idle.find_next(n + 1)) {
    model::NodeId node{static_cast<std::uint32_t>(n)};
    if (free.is_touched(node)) {
      continue;
    }
    std::uint32_t leaf = view.leaf_of(node);
    if (leaf >= out.nodes.size()) {
      out.nodes.resize(leaf + 1);
      out.gpus.resize(leaf + 1, 0);
    }
    out.nodes[leaf].push_back(node);
    out.gpus[leaf] += view.gpus_of(node);
  }
  return out;
}

/// Nodes with exactly `k` free GPUs in `free` (untouched ones from the view's bucket, touched ones by count).
std::vector<model::NodeId> nodes_with_exactly(const FreeResources& free, std::uint32_t k) {
  std::vector<model::NodeId> out;
  const auto& bucket = free.view().nodes_with_free_gpus(k);
  for (std::size_t n = bucket.find_first(); n != model::NodeBitset::NPOS; n = bucket.find_next(n + 1)) {
    model::NodeId node{static_cast<std::uint32_t>(n)};
    if (!free.is_touched(node)) {
      out.push_back(node);
    }
  }
  for (model::NodeId node : free.touched()) {
    if (free.free_gpus(node) == k) {
      out.push_back(node);
    }
  }
  return out;
}

/// Takes idle nodes of one leaf, most GPUs first then lowest index, until `gpus` are covered.
void take_from_leaf(const FreeResources& free, std::vector<model::NodeId> nodes, std::uint64_t& remaining,
                    model::Placement& placement) {
  const auto& view = free.view();
  std::stable_sort(nodes.begin(), nodes.end(),
                   [&](model::NodeId a, model::NodeId b) { return view.gpus_of(a) > view.gpus_of(b); });
  for (model::NodeId node : nodes) {
    if (remaining == 0) {
      return;
    }
    std::uint32_t g = view.gpus_of(node);
    placement.push_back({node, g});
    remaining -= std::min<std::uint64_t>(remaining, g);
  }
}

} // namespace

std::optional<model::NodeId> topology_node_with(const FreeResources& free, std::uint32_t gpus) {
  const auto& view = free.view();
  std::optional<IdleByLeaf> idle;
  for (std::uint32_t k = std::max(gpus, 1U); k <= view.shape().gpus_per_node; ++k) {
    std::vector<model::NodeId> candidates = nodes_with_exactly(free, k);
    if (candidates.empty()) {
      continue;
    }
    if (candidates.size() == 1) {
      return candidates.front();
    }
    if (!idle) {
      idle = idle_by_leaf(free);
    }
    auto idle_nodes_under = [&](model::NodeId node) {
      std::uint32_t leaf = view.leaf_of(node);
      return leaf < idle->nodes.size() ? idle->nodes[leaf].size() : 0;
    };
    return *std::min_element(candidates.begin(), candidates.end(), [&](model::NodeId a, model::NodeId b) {
      auto ia = idle_nodes_under(a);
      auto ib = idle_nodes_under(b);
      return ia < ib || (ia == ib && a < b);
    });
  }
  return std::nullopt;
}

std::optional<model::Placement> topology_gang(const FreeResources& free, std::uint32_t gpus) {
  IdleByLeaf idle = idle_by_leaf(free);
  std::uint64_t total = 0;
  for (std::uint64_t g : idle.gpus) {
    total += g;
  }
  if (total < gpus) {
    return std::nullopt;
  }
  // Leaves by idle GPUs, most first (lowest leaf on ties): whole leaves are taken in this order until one
  // leaf can finish the job, and that last leaf is the smallest that can (best fit).
  std::vector<std::uint32_t> order(idle.gpus.size());
  for (std::uint32_t l = 0; l < order.size(); ++l) {
    order[l] = l;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return idle.gpus[a] > idle.gpus[b]; });
  model::Placement placement;
  std::uint64_t remaining = gpus;
  for (std::size_t i = 0; i < order.size() && remaining > 0; ++i) {
    std::optional<std::uint32_t> best;
    for (std::size_t j = i; j < order.size(); ++j) {
      std::uint32_t leaf = order[j];
      if (idle.gpus[leaf] >= remaining && (!best || idle.gpus[leaf] < idle.gpus[*best])) {
        best = leaf;
      }
    }
    if (best) {
      take_from_leaf(free, idle.nodes[*best], remaining, placement);
      break;
    }
    take_from_leaf(free, idle.nodes[order[i]], remaining, placement);
  }
  return placement;
}

std::optional<model::Placement> TopologyPlacement::place(const model::JobSpec& job, const FreeResources& free) {
  if (job.is_fractional()) {
    return place_fraction(job, free, ShareFit::BEST, &topology_node_with);
  }
  if (job.gpus <= free.view().shape().gpus_per_node) {
    auto node = topology_node_with(free, job.gpus);
    if (!node) {
      return std::nullopt;
    }
    return model::Placement{{*node, job.gpus}};
  }
  return topology_gang(free, job.gpus);
}

} // namespace acme::policies
