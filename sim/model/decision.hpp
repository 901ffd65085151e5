#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"
#include "sim/model/wait_reason.hpp"

namespace acme::model {

/// GPUs taken on one node: `gpus` whole GPUs, or (for a fractional job) `milli` thousandths of the
/// node's shared GPU number `gpu` (0 .. GPUs of the node - 1), with `gpus` 0. A shared GPU that no job
/// uses yet is opened on one of the node's free GPUs; it is free again when its last share ends.
struct NodeShare {
  NodeId node{};
  std::uint32_t gpus = 0;
  std::uint32_t milli = 0; ///< 0: whole GPUs only; 1..999: a fraction of shared GPU `gpu`
  std::uint32_t gpu = 0;   ///< which shared GPU of the node (meaningful when milli > 0)
  friend bool operator==(const NodeShare&, const NodeShare&) = default;
};

/// GPUs a share holds in thousandths (whole GPUs count 1000 each).
constexpr std::uint64_t share_milli(const NodeShare& share) {
  return std::uint64_t{share.gpus} * MILLI_PER_GPU + share.milli;
}

/// A running job's share moved off a failed node onto a replacement (ClusterView::move_share).
struct NodeSwap {
  NodeId from{};
  NodeId to{};
};

/// Where a job runs: GPU shares on nodes (empty for CPU jobs, which use the cluster's CPU pool).
using Placement = std::vector<NodeShare>;

// Decisions a scheduler returns to the engine.

/// Start a queued job on the given placement.
struct StartJob {
  JobId job{};
  Placement placement;
  friend bool operator==(const StartJob&, const StartJob&) = default;
};
/// Stop a running job and put it back in the queue (it pays a checkpoint and a restore).
struct PreemptJob {
  JobId job{};
  friend bool operator==(const PreemptJob&, const PreemptJob&) = default;
};
/// Refuse a queued job for good.
struct RejectJob {
  JobId job{};
  RejectReason reason = RejectReason::BY_POLICY;
  friend bool operator==(const RejectJob&, const RejectJob&) = default;
};

/// A queued job keeps waiting, for `reason` (what jobs.csv and summary.json attribute its waiting time
/// to). Noting the reason a job already has costs nothing.
struct NoteWait {
  JobId job{};
  WaitReason reason = WaitReason::PRIORITY;
  friend bool operator==(const NoteWait&, const NoteWait&) = default;
};
/// Call the scheduler again at `time_s` (Batsim's CALL_ME_LATER): it then receives a WakeUp event. A
/// time already asked for is armed once; a time in the past means the next round of this instant, unless
/// the scheduler was already woken at this instant (then it is dropped: the clock must move on).
struct CallMeLater {
  double time_s = 0.0;
  friend bool operator==(const CallMeLater&, const CallMeLater&) = default;
};

using Decision = std::variant<StartJob, PreemptJob, RejectJob, NoteWait, CallMeLater>;

} // namespace acme::model
