#include "acme/policies/placement/pack.hpp"

namespace acme::policies {

std::optional<model::Placement> PackPlacement::place(const model::JobSpec& job, const FreeResources& free) {
  const std::uint32_t gpn = free.view().shape().gpus_per_node;
  if (job.gpus <= gpn) {
    auto node = tightest_node_with(free, job.gpus);
    if (!node) {
      return std::nullopt;
    }
    return model::Placement{{*node, job.gpus}};
  }
  std::uint32_t needed = model::nodes_needed(job.gpus, gpn);
  if (free.view().nodes_with_free_gpus(gpn).count() < needed) {
    return std::nullopt; // cheap early exit before listing idle nodes
  }
  std::vector<model::NodeId> idle = idle_nodes(free);
  if (idle.size() < needed) {
    return std::nullopt;
  }
  idle.resize(needed);
  return whole_nodes(idle, gpn);
}

} // namespace acme::policies
