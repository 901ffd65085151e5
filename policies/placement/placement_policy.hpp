#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/model/cluster_view.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/job.hpp"

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
  /// Milli in use on shared GPU `gpu` of `node`: the view's plus this round's promises (0: not shared).
  std::uint32_t shared_gpu_milli(model::NodeId node, std::uint32_t gpu) const;
  /// Shares of shared GPUs promised this round (nodes may repeat), in promise order.
  struct SharePromise {
    model::NodeId node{};
    std::uint32_t gpu = 0;
    std::uint32_t milli = 0;
  };
  const std::vector<SharePromise>& share_promises() const { return shares_; }

  void take(const model::Placement& placement);
  void take_cpus(std::uint32_t cores) { cpus_taken_ += cores; }

private:
  const model::ClusterView* view_ = nullptr;
  std::vector<std::uint32_t> taken_;
  std::vector<model::NodeId> touched_;
  std::vector<SharePromise> shares_;
  std::uint32_t taken_total_ = 0;
  std::uint32_t cpus_taken_ = 0;
};

/// Chooses where a job runs. Jobs of up to one node's GPUs get one node; larger jobs take whole
/// nodes (gang placement); a fractional job (JobSpec::is_fractional) gets a share of one GPU, on a GPU
/// already shared when one has room. Must be deterministic.
class PlacementPolicy {
public:
  virtual ~PlacementPolicy() = default;
  /// A placement covering `job.gpus` (whole nodes for gang jobs; one share of `job.gpu_milli` for a
  /// fractional job) on up nodes with free GPUs in `free`, or nullopt when the job does not fit now.
  /// Does not modify `free` (the scheduler takes what it decides).
  virtual std::optional<model::Placement> place(const model::JobSpec& job, const FreeResources& free) = 0;
};

// Shared building blocks for placement policies.

/// Lowest-index up node with at least `gpus` free, or nullopt.
std::optional<model::NodeId> lowest_node_with(const FreeResources& free, std::uint32_t gpus);
/// Up node with the fewest free GPUs that still holds `gpus` (best fit), lowest index on ties.
std::optional<model::NodeId> tightest_node_with(const FreeResources& free, std::uint32_t gpus);
/// All up nodes with every GPU free (and at least one GPU), lowest index first.
std::vector<model::NodeId> idle_nodes(const FreeResources& free);
/// Whole-node placement on `nodes` (gpus_per_node each) for a multi-node job.
model::Placement whole_nodes(const std::vector<model::NodeId>& nodes, std::uint32_t gpus_per_node);

/// Order in which a gang job takes idle nodes.
enum class GangOrder : std::uint8_t {
  LOWEST_INDEX,  ///< first idle nodes by index
  LARGEST_FIRST, ///< nodes with the most GPUs first (fewest nodes on heterogeneous clusters), then by index
};
/// Gang placement of `gpus` on idle nodes, each taken whole with all of its own GPUs, in `order` until
/// they hold `gpus`; nullopt when the idle nodes hold fewer. On identical nodes both orders take the
/// first ceil(gpus / gpus_per_node) idle nodes.
std::optional<model::Placement> gang_on_idle_nodes(const FreeResources& free, std::uint32_t gpus, GangOrder order);

/// How a fractional job picks among shared GPUs that have room.
enum class ShareFit : std::uint8_t {
  FIRST, ///< lowest node, then lowest GPU
  BEST,  ///< least room left after placing it (best fit), then lowest node and GPU
};
/// A share of `milli` on a GPU already shared (in the view or promised this round) with room for it.
std::optional<model::NodeShare> shared_gpu_with_room(const FreeResources& free, std::uint32_t milli, ShareFit fit);
/// A share of `milli` on a free GPU of `node` opened as a new shared GPU (the node's lowest GPU number
/// not shared yet). `node` must have a free GPU in `free`.
model::NodeShare open_shared_gpu(const FreeResources& free, model::NodeId node, std::uint32_t milli);
/// Placement of a fractional job: a GPU already shared when one has room (by `fit`), else a new shared
/// GPU on the node `pick_node(free, 1)` returns.
std::optional<model::Placement> place_fraction(const model::JobSpec& job, const FreeResources& free, ShareFit fit,
                                               std::optional<model::NodeId> (*pick_node)(const FreeResources&,
                                                                                         std::uint32_t));
/// Cheap necessary condition for `job` to start now: enough free GPUs for a whole-GPU job; a free GPU
/// or a shared GPU in use for a fractional job. Schedulers use it to stop scanning early (a fractional
/// job can start when no GPU is free, on a shared GPU).
bool may_fit_now(const model::JobSpec& job, const FreeResources& free);

} // namespace acme::policies
