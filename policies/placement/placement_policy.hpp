#pragma once

#include "acme/model/cluster_view.hpp"
#include "acme/model/decision.hpp"
#include "acme/model/job.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace acme::policies {

/// Free resources of a cluster while a scheduler plans one round of starts: the view's free GPUs
/// minus what this round has already promised. Costs O(nodes touched) per round, not O(nodes).
class FreeResources {
public:
  /// Starts a round over `view` (forgets earlier promises).
  void begin_round(const model::ClusterView& view);

  const model::ClusterView& view() const { return *view_; }
  std::uint32_t free_gpus(model::NodeId node) const;
  std::uint32_t free_gpus_total() const { return view_->free_gpus_total() - taken_total_; }
  std::uint32_t free_cpu_cores() const { return view_->free_cpu_cores() - cpus_taken_; }
  /// Nodes touched this round (their free count differs from the view's buckets).
  const std::vector<model::NodeId>& touched() const { return touched_; }
  bool is_touched(model::NodeId node) const { return taken_[model::to_index(node)] > 0; }

  void take(const model::Placement& placement);
  void take_cpus(std::uint32_t cores) { cpus_taken_ += cores; }

private:
  const model::ClusterView* view_ = nullptr;
  std::vector<std::uint32_t> taken_;
  std::vector<model::NodeId> touched_;
  std::uint32_t taken_total_ = 0;
  std::uint32_t cpus_taken_ = 0;
};

/// Chooses where a job runs. Jobs of up to one node's GPUs get one node; larger jobs take whole
/// nodes (gang placement). Must be deterministic.
class PlacementPolicy {
public:
  virtual ~PlacementPolicy() = default;
  /// A placement covering exactly `job.gpus` on up nodes with free GPUs in `free`, or nullopt when
  /// the job does not fit now. Does not modify `free` (the scheduler takes what it decides).
  virtual std::optional<model::Placement> place(const model::JobSpec& job, const FreeResources& free) = 0;
};

// Shared building blocks for placement policies.

/// Lowest-index up node with at least `gpus` free, or nullopt.
std::optional<model::NodeId> lowest_node_with(const FreeResources& free, std::uint32_t gpus);
/// Up node with the fewest free GPUs that still holds `gpus` (best fit), lowest index on ties.
std::optional<model::NodeId> tightest_node_with(const FreeResources& free, std::uint32_t gpus);
/// All up nodes with every GPU free, lowest index first.
std::vector<model::NodeId> idle_nodes(const FreeResources& free);
/// Whole-node placement on `nodes` (gpus_per_node each) for a multi-node job.
model::Placement whole_nodes(const std::vector<model::NodeId>& nodes, std::uint32_t gpus_per_node);

} // namespace acme::policies
