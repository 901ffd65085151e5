#include "policies/scheduling/node_tally.hpp"

#include <algorithm>

#include "sim/model/assert.hpp"

namespace acme::policies {

void NodeTally::reset(const FreeResources& free) {
  const auto& view = free.view();
  gpus_per_node_ = view.shape().gpus_per_node;
  const std::uint32_t nodes = view.shape().nodes;
  free_.assign(nodes, 0);
  capacity_.assign(nodes, 0);
  up_.assign(nodes, false);
  nodes_at_level_.assign(gpus_per_node_ + 1, 0);
  idle_gpus_ = 0;
  for (std::uint32_t n = 0; n < nodes; ++n) {
    model::NodeId node{n};
    if (!view.is_up(node)) {
      continue;
    }
    up_[n] = true;
    capacity_[n] = view.gpus_of(node);
    free_[n] = 0;
    ++nodes_at_level_[0];
    move(n, free.free_gpus(node));
  }
}

void NodeTally::move(std::size_t n, std::uint32_t to) {
  bool was_idle = capacity_[n] > 0 && free_[n] == capacity_[n];
  --nodes_at_level_[free_[n]];
  free_[n] = to;
  ++nodes_at_level_[to];
  bool idle = capacity_[n] > 0 && to == capacity_[n];
  if (idle && !was_idle) {
    idle_gpus_ += capacity_[n];
  } else if (was_idle && !idle) {
    idle_gpus_ -= capacity_[n];
  }
}

void NodeTally::give(model::NodeId node, std::uint32_t gpus) {
  auto n = model::to_index(node);
  if (n >= up_.size() || !up_[n]) {
    return;
  }
  move(n, std::min(capacity_[n], free_[n] + gpus));
}

void NodeTally::take(model::NodeId node, std::uint32_t gpus) {
  auto n = model::to_index(node);
  ACME_ASSERT(up_[n] && free_[n] >= gpus, "a plan never takes GPUs a node does not have");
  move(n, free_[n] - gpus);
}

void NodeTally::give(const model::Placement& placement) {
  for (const auto& share : placement) {
    give(share.node, planned_gpus(share));
  }
}

void NodeTally::take(const model::Placement& placement) {
  for (const auto& share : placement) {
    // A share of a GPU already shared takes no free GPU: take one only when there is one.
    std::uint32_t gpus = share.milli > 0 ? std::min(free_gpus(share.node), 1U) : share.gpus;
    take(share.node, gpus);
  }
}

bool NodeTally::fits_gpus(std::uint32_t gpus) const {
  if (gpus <= gpus_per_node_) {
    for (std::uint32_t k = std::max(gpus, 1U); k <= gpus_per_node_; ++k) {
      if (nodes_at_level_[k] > 0) {
        return true;
      }
    }
    return false;
  }
  return idle_gpus_ >= gpus;
}

} // namespace acme::policies
