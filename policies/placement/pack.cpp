#include "policies/placement/pack.hpp"

namespace acme::policies {

std::optional<model::Placement> PackPlacement::place(const model::JobSpec& job, const FreeResources& free) {
  const std::uint32_t gpn = free.view().shape().gpus_per_node;
  if (job.is_fractional()) {
    return place_fraction(job, free, ShareFit::BEST, &tightest_node_with);
  }
  if (job.gpus <= gpn) {
    auto node = tightest_node_with(free, job.gpus);
    if (!node) {
      return std::nullopt;
    }
    return model::Placement{{*node, job.gpus}};
  }
  std::uint32_t needed = model::nodes_needed(job.gpus, gpn);
  if (free.view().idle_node_set().count() < needed) {
    return std::nullopt; // cheap early exit before listing idle nodes (no node has more than gpn GPUs)
  }
  return gang_on_idle_nodes(free, job.gpus, GangOrder::LARGEST_FIRST);
}

} // namespace acme::policies
