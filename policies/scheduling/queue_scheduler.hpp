#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "policies/estimators/runtime_estimator.hpp"
#include "policies/scheduling/job_queue.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "policies/scheduling/scheduler.hpp"

namespace acme::policies {

/// How long a preemption counts as outstanding when its JobEnded never comes (the engine may find it
/// moot: the job was already saving, hung or recovering). An hour covers a checkpoint write of the
/// largest model of the paper (123B parameters, ~1.5 TB of state) at a node's 200 Gb/s NIC (~1 min) by a
/// wide margin.
inline constexpr double PREEMPTION_WAIT_LIMIT_S = 3600.0;

/// What changed since the previous round, as far as deciding starts is concerned.
struct RoundChanges {
  bool released = false;             ///< GPUs were freed: a job ended (any cause) or a node came back
  bool nodes_down = false;           ///< a node went down (reservations computed on it are void)
  bool overrun = false;              ///< a running job passed its estimated end (plans built on it are void)
  std::vector<model::JobId> arrived; ///< GPU jobs queued this round (new or back after preemption)

  /// Nothing but arrivals: every job that waited before still cannot start where it could not.
  bool arrivals_only() const { return !released && !nodes_down && !overrun; }
};

/// Why the previous pass over a queue stopped (decides what an arrival-only round must look at).
enum class PassEnd : std::uint8_t {
  QUEUE_EXHAUSTED, ///< every queued job was examined
  NO_FREE_GPUS,    ///< the free GPUs ran out
  DEPTH,           ///< the depth limit was reached
  STOPPED,         ///< the pass stopped on purpose (strict order blocked, a preemption was issued)
};

/// The common part of the queue-based schedulers: it turns events into queue changes, remembers the
/// jobs it started (for runtime estimates, reservations and the estimator's learning), serves CPU jobs
/// first-come first-served on the cluster's CPU pool, and tracks preemptions it has asked for. A
/// subclass orders GPU jobs and decides which start.
class QueueScheduler : public Scheduler {
public:
  explicit QueueScheduler(EstimatorParams estimator = {}) : estimator_(estimator) {}

  std::vector<model::Decision> on_events(std::span<const model::Event> events, const model::ClusterView& cluster) final;

protected:
  /// A GPU job entered the queue (first submission, or back after preemption).
  virtual void enqueue(const model::JobEntry& entry) = 0;
  /// Decides this round's GPU starts (and preemptions); free_ holds the round's free resources.
  virtual void schedule_gpus(const model::ClusterView& cluster, const RoundChanges& changes,
                             std::vector<model::Decision>& out) = 0;
  /// Accounting hooks (quotas, fair share, queue levels).
  virtual void on_job_started(const RunningJob& job) { (void)job; }
  virtual void on_job_stopped(const RunningJob& job, model::EndCause cause) { (void)job, (void)cause; }

  /// Starts a queued GPU job: takes its GPUs from free_, remembers it as running, emits StartJob.
  void start(const model::JobEntry& entry, model::Placement placement, std::vector<model::Decision>& out);
  /// Asks the engine to preempt a running job; it counts as outstanding until its JobEnded arrives.
  void preempt(model::JobId job, std::vector<model::Decision>& out);
  bool preemptions_outstanding() const { return !preempting_.empty(); }
  bool is_preempting(model::JobId job) const { return preempting_.count(job) > 0; }
  /// No job at all can start now: no free GPU and no shared GPU with possible room.
  bool no_room() const {
    return free_.free_gpus_total() == 0 && free_.view().nodes_with_shared_gpus().empty() &&
           free_.share_promises().empty();
  }
  /// Whether a job of this spec might start now (cheap necessary condition; see may_fit_now).
  bool may_fit(const model::JobSpec& job) const { return may_fit_now(job, free_); }
  /// Estimated service still to run for a queued job: its estimate less what earlier attempts ran;
  /// a job that already ran past its estimate is expected to run as long again.
  double remaining_estimate_s(const model::JobEntry& entry) const;
  /// The queued GPU job `id`, or nullptr when the view no longer shows it queued (stale entry).
  static const model::JobEntry* queued_entry(const model::ClusterView& cluster, model::JobId id);
  /// Serves the claimant first: starts it when it fits (true); drops the claim when it cannot fit and no
  /// preemption is outstanding. While it waits for its victims, the free GPUs of the victims' nodes are
  /// kept out of this round so that nothing else takes what is being freed for it.
  bool serve_claimant(const model::ClusterView& cluster, std::vector<model::Decision>& out);
  /// Tries to place `entry` on the round's free resources without starting it.
  std::optional<model::Placement> try_place(const model::JobEntry& entry);

  double now_s() const { return now_s_; }

  /// A job that preemptions were issued for: served first until it starts (its victims' GPUs are its).
  std::optional<model::JobId> claimant_;
  RuntimeEstimator estimator_;
  RunningJobs running_;
  FreeResources free_;

private:
  void intake(const model::Event& event, const model::ClusterView& cluster, RoundChanges& changes);
  void job_ended(const model::JobEnded& ended, const model::ClusterView& cluster, RoundChanges& changes);
  void start_cpu_jobs(const model::ClusterView& cluster, std::vector<model::Decision>& out);

  JobQueue cpu_queue_;
  std::map<model::JobId, double> preempting_; ///< victim -> when its preemption was asked
  double now_s_ = 0.0;
};

} // namespace acme::policies
