#pragma once

#include "acme/model/ids.hpp"
#include "acme/model/job.hpp"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace acme::model {

/// GPUs taken on one node.
struct NodeShare {
  NodeId node{};
  std::uint32_t gpus = 0;
  friend bool operator==(const NodeShare&, const NodeShare&) = default;
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

using Decision = std::variant<StartJob, PreemptJob, RejectJob>;

} // namespace acme::model
