#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "sim/config/faults.hpp"
#include "sim/core/attempt_chain.hpp"
#include "sim/core/checkpoint_model.hpp"
#include "sim/core/cluster_runtime.hpp"
#include "sim/core/failure_process.hpp"
#include "sim/core/io_service.hpp"
#include "sim/core/job_control.hpp"
#include "sim/core/node_availability.hpp"
#include "sim/core/power_meter.hpp"
#include "sim/core/recovery.hpp"
#include "sim/core/task_runner.hpp"
#include "sim/core/team_plan.hpp"
#include "sim/core/timer_service.hpp"
#include "sim/core/training_traffic.hpp"
#include "sim/metrics/recorder.hpp"
#include "sim/model/cluster_rngs.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/rng.hpp"

namespace spdlog {
class logger;
} // namespace spdlog

namespace acme::core {

/// A job's way through the engine: submitted, started where its scheduler says (after the launch
/// latency), run by the checkpoint model or the task runner, preempted, failed, ended, recorded.
/// Every change of a job's state starts here or passes through here (submit, start_job, on_launched,
/// preempt, fail, end_attempt, finish, reject): the places to trace them.
class JobLifecycle final : public JobControl, public FailureHooks {
public:
  /// The parts that run the jobs, connected once built (they call back through JobControl).
  struct Parts {
    CheckpointModel* checkpoint = nullptr;
    TaskRunner* plans = nullptr;
    Recovery* recovery = nullptr;
    TrainingTraffic* traffic = nullptr; ///< optional: layouts and the network model
    PowerMeter* power = nullptr;
    AttemptChain* chain = nullptr;      ///< optional: told of every submission and end
    TeamPlan* plan = nullptr;           ///< optional: told of every submission and end
    FailureProcess* failures = nullptr; ///< optional: finds latent faults where a job lands
  };

  /// `launch_rng` draws the launch latencies.
  JobLifecycle(const config::FaultConfig& faults, TimerService& timer, IoService& io, JobTable& table,
               NodeAvailability& nodes, metrics::Recorder& recorder, model::ClusterRngs& launch_rng);
  void attach(Parts parts) { parts_ = parts; }

  /// A job enters its cluster's queue (or is rejected at once when it can never fit).
  void submit(model::JobSpec spec);
  /// Carries out a scheduler's decision.
  void apply(ClusterRuntime& cluster, const model::Decision& decision);
  /// JobLaunched: the job begins (its plan, or restore then compute).
  void on_launched(model::JobId id, JobRuntime& job);
  /// A transfer ended: to the part that started it.
  void on_transfer_done(const TransferDone& done);
  /// An infrastructure failure of `category` struck the job (`at_fault`: the nodes that failed, if known).
  void fail(model::JobId id, JobRuntime& job, std::uint32_t category, std::span<const model::NodeId> at_fault = {});

  std::uint64_t jobs_submitted() const { return jobs_submitted_; }
  std::uint64_t jobs_rejected() const { return jobs_rejected_; }

  // JobControl
  void finish(model::JobId id, JobRuntime& job, model::JobState state, model::EndCause cause) override;
  void end_attempt(model::JobId id, JobRuntime& job, model::JobPhase next, model::JobState state,
                   model::EndCause cause) override;
  void requeue(model::JobId id) override;
  void relaunch(model::JobId id, JobRuntime& job, const std::vector<model::NodeSwap>& swaps) override;
  void preempt_for_restart(model::JobId id) override;
  // FailureHooks
  void fail_node_jobs(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) override;
  void fail_switch_jobs(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) override;
  void node_repaired(model::ClusterId cluster, std::uint32_t node) override;
  bool node_restarting(model::ClusterId cluster, std::uint32_t node) const override;
  bool node_busy(model::ClusterId cluster, std::uint32_t node) const override;

private:
  /// A job landed on `placement`: latent faults there are found (the job fails at start).
  void find_latent_faults(ClusterRuntime& cluster, const model::Placement& placement);
  void start_job(ClusterRuntime& cluster, const model::StartJob& start);
  void note_wait(ClusterRuntime& cluster, const model::NoteWait& note);
  void call_later(ClusterRuntime& cluster, double time_s);
  void allocate(ClusterRuntime& cluster, model::JobId id, JobRuntime& job);
  void release(model::JobId id, JobRuntime& job, model::JobPhase next);
  /// Preempts the job; `may_save`: it saves first when the preemption config says so.
  void preempt(model::JobId id, bool may_save = true);
  void trace_preempt(model::JobId id, const JobRuntime& job, std::string_view detail);
  void reject(ClusterRuntime& cluster, model::JobId id, model::RejectReason reason);
  void cancel_transfers(JobRuntime& job);
  void record(const model::JobEntry& entry, JobRuntime& job, model::JobState state, model::RejectReason reason);
  std::uint32_t usable_gpus(const ClusterRuntime& cluster);
  void check_progress(JobRuntime& job, const model::JobSpec& spec) const;

  const config::FaultConfig& faults_;
  TimerService& timer_;
  IoService& io_;
  JobTable& table_;
  NodeAvailability& nodes_;
  metrics::Recorder& recorder_;
  metrics::EventTrace* trace_; ///< events.csv, or null when output.events is off
  spdlog::logger& log_;        ///< the engine's logger (debug: failures, preemptions, rejections)
  model::ClusterRngs& launch_rng_;
  Parts parts_;
  std::uint64_t jobs_submitted_ = 0;
  std::uint64_t jobs_rejected_ = 0;
  std::vector<std::uint32_t> usable_gpus_; ///< per cluster, once known: GPUs of the nodes that are not spares
};

} // namespace acme::core
