#pragma once

#include "sim/core/job_runtime.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/event.hpp"

namespace acme::core {

/// What the engine's parts may ask of the job lifecycle (JobLifecycle implements it; tests fake it).
class JobControl {
public:
  virtual ~JobControl() = default;
  /// The job leaves the system with `state`: its resources are released, it is recorded and
  /// forgotten (`job` is dangling afterwards).
  virtual void finish(model::JobId id, JobRuntime& job, model::JobState state, model::EndCause cause) = 0;
  /// The current attempt ends: the job's resources are released, it is queued again (`next`
  /// QUEUED) or held out of the queue (HELD), and its scheduler is told (`state`, `cause`).
  virtual void end_attempt(model::JobId id, JobRuntime& job, model::JobPhase next, model::JobState state,
                           model::EndCause cause) = 0;
  /// A held job goes back to its queue.
  virtual void requeue(model::JobId id) = 0;
  /// The job starts again at once on the nodes it holds (after automatic recovery), `swaps` naming the
  /// failed nodes replaced since it stopped (the rest of its placement is unchanged).
  virtual void relaunch(model::JobId id, JobRuntime& job, const std::vector<model::NodeSwap>& swaps) = 0;
  /// A running job is preempted at once, without a save, because a restart takes its nodes: it loses its
  /// work since its last persisted checkpoint (second-order loss), is queued again and its nodes are free.
  virtual void preempt_for_restart(model::JobId id) = 0;
};

} // namespace acme::core
