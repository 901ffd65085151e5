#include <algorithm>
#include <limits>

#include "policies/placement/placement_policy.hpp"
#include "sim/model/assert.hpp"

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
  shares_.clear();
  taken_total_ = 0;
  cpus_taken_ = 0;
}

std::uint32_t FreeResources::free_gpus(model::NodeId node) const {
  if (!view_->is_up(node)) {
    return 0;
  }
  return view_->free_gpus(node) - taken_[model::to_index(node)];
}

std::uint32_t FreeResources::shared_gpu_milli(model::NodeId node, std::uint32_t gpu) const {
  std::uint32_t used = view_->shared_gpu_milli(node, gpu);
  for (const auto& promise : shares_) {
    if (promise.node == node && promise.gpu == gpu) {
      used += promise.milli;
    }
  }
  return used;
}

void FreeResources::take(const model::Placement& placement) {
  for (const auto& share : placement) {
    auto n = model::to_index(share.node);
    std::uint32_t whole = share.gpus;
    if (share.milli > 0) {
      ACME_ASSERT(share.gpus == 0, "a share of a GPU takes no whole GPUs");
      std::uint32_t used = shared_gpu_milli(share.node, share.gpu);
      ACME_ASSERT(used + share.milli <= model::MILLI_PER_GPU, "a round never over-fills a shared GPU");
      whole = used == 0 ? 1 : 0; // opening a shared GPU takes a free one
      shares_.push_back({share.node, share.gpu, share.milli});
    }
    ACME_ASSERT(free_gpus(share.node) >= whole, "a round never promises more GPUs than are free");
    if (taken_[n] == 0 && whole > 0) {
      touched_.push_back(share.node);
    }
    taken_[n] += whole;
    taken_total_ += whole;
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
  const auto& bucket = free.view().idle_node_set();
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

std::optional<model::Placement> gang_on_idle_nodes(const FreeResources& free, std::uint32_t gpus, GangOrder order) {
  const auto& view = free.view();
  model::Placement placement;
  std::uint32_t held = 0;
  auto add = [&](model::NodeId node) {
    placement.push_back({node, view.gpus_of(node)});
    held += view.gpus_of(node);
  };
  if (order == GangOrder::LARGEST_FIRST && !view.shape().gpus_of_node.empty()) {
    std::vector<model::NodeId> idle = idle_nodes(free);
    std::stable_sort(idle.begin(), idle.end(),
                     [&](model::NodeId a, model::NodeId b) { return view.gpus_of(a) > view.gpus_of(b); });
    for (auto it = idle.begin(); it != idle.end() && held < gpus; ++it) {
      add(*it);
    }
    return held >= gpus ? std::optional(std::move(placement)) : std::nullopt;
  }
  // Index order: walk the idle set and stop as soon as the job is covered (no full listing).
  const auto& idle = view.idle_node_set();
  if (std::uint64_t{idle.count()} * view.shape().gpus_per_node < gpus) {
    return std::nullopt; // no node has more than gpus_per_node GPUs
  }
  for (std::size_t n = idle.find_first(); n != model::NodeBitset::NPOS && held < gpus; n = idle.find_next(n + 1)) {
    model::NodeId node{static_cast<std::uint32_t>(n)};
    if (!free.is_touched(node)) {
      add(node);
    }
  }
  return held >= gpus ? std::optional(std::move(placement)) : std::nullopt;
}

std::optional<model::NodeShare> shared_gpu_with_room(const FreeResources& free, std::uint32_t milli, ShareFit fit) {
  const auto& view = free.view();
  std::optional<model::NodeShare> best;
  std::uint32_t best_room = std::numeric_limits<std::uint32_t>::max();
  auto consider = [&](model::NodeId node) {
    for (std::uint32_t g = 0; g < view.gpus_of(node); ++g) {
      std::uint32_t used = free.shared_gpu_milli(node, g);
      if (used == 0 || used + milli > model::MILLI_PER_GPU) {
        continue;
      }
      std::uint32_t room = model::MILLI_PER_GPU - used - milli;
      bool earlier = !best || node < best->node || (node == best->node && g < best->gpu);
      bool better = fit == ShareFit::FIRST ? earlier : (room < best_room || (room == best_room && earlier));
      if (better) {
        best = model::NodeShare{node, 0, milli, g};
        best_room = room;
      }
    }
  };
  for (const auto& promise : free.share_promises()) {
    consider(promise.node);
  }
  const auto& shared = view.nodes_with_shared_gpus();
  for (std::size_t n = shared.find_first(); n != model::NodeBitset::NPOS; n = shared.find_next(n + 1)) {
    model::NodeId node{static_cast<std::uint32_t>(n)};
    if (fit == ShareFit::FIRST && best && best->node < node) {
      break; // nothing later comes first
    }
    consider(node);
  }
  return best;
}

model::NodeShare open_shared_gpu(const FreeResources& free, model::NodeId node, std::uint32_t milli) {
  ACME_ASSERT(free.free_gpus(node) > 0, "a new shared GPU opens on a free GPU");
  const std::uint32_t gpus = free.view().gpus_of(node);
  for (std::uint32_t g = 0; g < gpus; ++g) {
    if (free.shared_gpu_milli(node, g) == 0) {
      return model::NodeShare{node, 0, milli, g};
    }
  }
  ACME_ASSERT(false, "a node with a free GPU has a GPU number not shared yet");
  return {};
}

std::optional<model::Placement> place_fraction(const model::JobSpec& job, const FreeResources& free, ShareFit fit,
                                               std::optional<model::NodeId> (*pick_node)(const FreeResources&,
                                                                                         std::uint32_t)) {
  ACME_ASSERT(job.is_fractional(), "place_fraction places fractional jobs");
  if (auto share = shared_gpu_with_room(free, job.gpu_milli, fit)) {
    return model::Placement{*share};
  }
  auto node = pick_node(free, 1);
  if (!node) {
    return std::nullopt;
  }
  return model::Placement{open_shared_gpu(free, *node, job.gpu_milli)};
}

bool may_fit_now(const model::JobSpec& job, const FreeResources& free) {
  if (job.is_fractional()) {
    return free.free_gpus_total() > 0 || !free.view().nodes_with_shared_gpus().empty() ||
           !free.share_promises().empty();
  }
  return job.gpus <= free.free_gpus_total();
}

} // namespace acme::policies
