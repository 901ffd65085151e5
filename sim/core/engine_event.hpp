#pragma once

// The events of the engine's own queue, one small struct each. A new mechanism adds its struct to
// EngineEvent and one handler to EventLoop's dispatch.

#include <cstdint>
#include <variant>

#include "sim/model/ids.hpp"

namespace acme::core {

using TransferId = std::uint64_t;
using FlowId = std::uint64_t;

/// The lane of a task plan's prologue (its lanes count from 0).
inline constexpr std::int32_t PROLOGUE_LANE = -1;

// Job events carry the job's stage generation: an event of a stage the job has left is dropped.

/// The launch latency is over (pod start): the job begins (restore, then compute, or its plan).
struct JobLaunched {
  model::JobId job{};
  std::uint32_t generation = 0;
};
/// Computation reached its next stop (a checkpoint is due, or the work is done).
struct SegmentEnded {
  model::JobId job{};
  std::uint32_t generation = 0;
};
/// A fixed-length stall ended (async snapshot copy, fallback save or restore, host-to-device copy).
struct StallEnded {
  model::JobId job{};
  std::uint32_t generation = 0;
};
/// A timed step of a task plan ended.
struct StepEnded {
  model::JobId job{};
  std::uint32_t generation = 0;
  std::int32_t lane = PROLOGUE_LANE;
};
/// The recovery steps after a failure are done (detection, diagnosis, isolation).
struct JobRecovered {
  model::JobId job{};
  std::uint32_t generation = 0;
};
/// A hung job is noticed and killed: its nodes are released, and it is queued again at requeue_at_s.
struct HangNoticed {
  model::JobId job{};
  std::uint32_t generation = 0;
  double requeue_at_s = 0.0;
};
/// A storage transfer ended (`ok` false: a host on its route went down).
struct TransferDone {
  TransferId transfer = 0;
  model::JobId owner{};
  bool ok = true;
  double duration_s = 0.0;
};
/// The fabric re-shared its links after its flows changed: some training flows run at new rates.
struct FlowRatesChanged {};
/// A leaf-to-spine link fails: its leaf loses that link's capacity.
struct SpineLinkFailed {
  model::ClusterId cluster{};
  std::uint32_t leaf = 0;
  std::uint32_t generation = 0; ///< invalidates draws made before the leaf's last change
};
/// A failed leaf-to-spine link is repaired.
struct SpineLinkRepaired {
  model::ClusterId cluster{};
  std::uint32_t leaf = 0;
};
/// A node's random failure process fires (`generation` invalidates draws made before a repair).
struct NodeFailed {
  model::ClusterId cluster{};
  std::uint32_t node = 0;
  std::uint32_t generation = 0;
};
/// A failed node is repaired.
struct NodeRepaired {
  model::ClusterId cluster{};
  std::uint32_t node = 0;
  bool quarantine_ends = false; ///< the end of a quarantine (recovery.quarantine), not of a repair
};
/// A node turns slow (failures.slow); stale unless `generation` is the node's last draw.
struct NodeSlowed {
  model::ClusterId cluster{};
  std::uint32_t node = 0;
  std::uint32_t generation = 0;
};
/// A slow node's straggling is noticed (failures.slow.evict_after): evicted if it runs a job.
struct SlowNoticed {
  model::ClusterId cluster{};
  std::uint32_t node = 0;
  std::uint32_t generation = 0; ///< of its slow period's onset
};
/// A slow node computes at full speed again.
struct NodeSpedUp {
  model::ClusterId cluster{};
  std::uint32_t node = 0;
};
/// A group of nodes fails at once (failures.group).
struct GroupFailed {
  model::ClusterId cluster{};
  std::uint32_t group = 0;
};
/// A leaf switch fails: its nodes go down.
struct LeafFailed {
  model::ClusterId cluster{};
  std::uint32_t leaf = 0;
};
/// A failed leaf switch is repaired.
struct LeafRepaired {
  model::ClusterId cluster{};
  std::uint32_t leaf = 0;
};
/// A failure due now with its category: replayed from the failure trace, or a latent fault found.
struct TracedFailure {
  /// How it shows: now (a trace's failure, as any that strikes), or a latent fault found by a job or a check.
  enum class Found : std::uint8_t { NOW, BY_JOB, BY_CHECK };
  model::ClusterId cluster{};
  std::uint32_t node = 0;
  std::uint32_t category = 0; ///< index into failures.categories
  double repair_s = -1.0;     ///< the trace's own repair time; negative: drawn from the category's
  Found found = Found::NOW;
};

/// A cluster's periodic health check of its idle nodes (failures.health_check).
struct HealthCheck {
  model::ClusterId cluster{};
};

/// A node switched on by its cluster's power policy has booted: it is back in service.
struct NodeBooted {
  model::ClusterId cluster{};
  std::uint32_t node = 0;
};
/// A cluster's power policy asked to be called at this time.
struct PowerCheck {
  model::ClusterId cluster{};
};
/// A time a cluster's scheduler asked for (CallMeLater) has come.
struct PolicyWakeup {
  model::ClusterId cluster{};
  double time_s = 0.0;
};

using EngineEvent = std::variant<JobLaunched, SegmentEnded, StallEnded, StepEnded, JobRecovered, HangNoticed,
                                 TransferDone, FlowRatesChanged, NodeFailed, NodeRepaired, LeafFailed, LeafRepaired,
                                 TracedFailure, SpineLinkFailed, SpineLinkRepaired, NodeBooted, PowerCheck,
                                 PolicyWakeup, HealthCheck, NodeSlowed, NodeSpedUp, GroupFailed, SlowNoticed>;

} // namespace acme::core
