#pragma once

#include <variant>

#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::model {

/// Why a running job stopped.
enum class EndCause : std::uint8_t {
  WORKLOAD,     ///< as the workload says (recorded or generated final state)
  NODE_FAILURE, ///< a node under it failed
  PREEMPTED,    ///< the scheduler preempted it (it is queued again)
};

// Events the engine reports to a cluster's scheduler. All refer to jobs and nodes of that cluster.

/// A job entered the queue (first submission or resubmission).
struct JobSubmitted {
  JobId job{};
  friend bool operator==(const JobSubmitted&, const JobSubmitted&) = default;
};
/// A job released its resources. When `cause` is PREEMPTED the job is queued again at once.
struct JobEnded {
  JobId job{};
  JobState state = JobState::COMPLETED;
  EndCause cause = EndCause::WORKLOAD;
  friend bool operator==(const JobEnded&, const JobEnded&) = default;
};
/// A node went down (failure) or was isolated: it accepts no new jobs.
struct NodeDown {
  NodeId node{};
  friend bool operator==(const NodeDown&, const NodeDown&) = default;
};
/// A node is back in service.
struct NodeUp {
  NodeId node{};
  friend bool operator==(const NodeUp&, const NodeUp&) = default;
};

/// A time the scheduler asked for with CallMeLater has come.
struct WakeUp {
  double time_s = 0.0;
  friend bool operator==(const WakeUp&, const WakeUp&) = default;
};

using Event = std::variant<JobSubmitted, JobEnded, NodeDown, NodeUp, WakeUp>;

} // namespace acme::model
