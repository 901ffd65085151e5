#pragma once

#include <cstdint>
#include <vector>

#include "policies/placement/placement_policy.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// Whole GPUs a share is planned to hold: its whole GPUs, or one for a share of a shared GPU (it may
/// have opened that GPU; plans assume it did, which never promises more than there is).
constexpr std::uint32_t planned_gpus(const model::NodeShare& share) {
  return share.gpus + (share.milli > 0 ? 1 : 0);
}

/// Free GPUs per up node at one moment of a plan (now, or a future instant once some running jobs
/// have ended), with the number of nodes at each free level and the GPUs of idle nodes, so that "would
/// a job fit?" costs O(gpus_per_node). Fitting follows the rule every placement policy obeys: a job of
/// up to gpus_per_node GPUs needs one node with that many free (a fractional job: one free GPU); a
/// larger job needs idle nodes holding its GPUs.
class NodeTally {
public:
  /// Starts from the free GPUs of the round (down nodes hold nothing and never gain anything).
  void reset(const FreeResources& free);
  /// `gpus` more free on `node` (a job there ends), capped at the node's GPUs; ignored on down nodes.
  void give(model::NodeId node, std::uint32_t gpus);
  /// `gpus` fewer free on `node` (a job placed there); the node must have them.
  void take(model::NodeId node, std::uint32_t gpus);
  /// Gives or takes every share of a placement (planned_gpus of each; a share of a shared GPU takes a
  /// free GPU only where one is left).
  void give(const model::Placement& placement);
  void take(const model::Placement& placement);
  std::uint32_t free_gpus(model::NodeId node) const { return free_[model::to_index(node)]; }
  bool is_up(model::NodeId node) const { return up_[model::to_index(node)]; }
  /// Whether `job` could be placed on this tally.
  bool fits(const model::JobSpec& job) const { return fits_gpus(job.gpus); }
  bool fits_gpus(std::uint32_t gpus) const;

private:
  void move(std::size_t n, std::uint32_t to);

  std::uint32_t gpus_per_node_ = 0;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> capacity_;
  std::vector<bool> up_;
  std::vector<std::uint32_t> nodes_at_level_;
  std::uint64_t idle_gpus_ = 0;
};

} // namespace acme::policies
