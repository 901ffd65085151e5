#include "policies/placement/first_fit.hpp"

namespace acme::policies {

std::optional<model::Placement> FirstFitPlacement::place(const model::JobSpec& job, const FreeResources& free) {
  const std::uint32_t gpn = free.view().shape().gpus_per_node;
  if (job.is_fractional()) {
    return place_fraction(job, free, ShareFit::FIRST, &lowest_node_with);
  }
  if (job.gpus <= gpn) {
    auto node = lowest_node_with(free, job.gpus);
    if (!node) {
      return std::nullopt;
    }
    return model::Placement{{*node, job.gpus}};
  }
  return gang_on_idle_nodes(free, job.gpus, GangOrder::LOWEST_INDEX);
}

} // namespace acme::policies
