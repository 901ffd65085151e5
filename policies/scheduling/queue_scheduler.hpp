#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "policies/estimators/runtime_estimator.hpp"
#include "policies/scheduling/job_queue.hpp"
#include "policies/scheduling/limit_book.hpp"
#include "policies/scheduling/pass_cadence.hpp"
#include "policies/scheduling/pass_queue.hpp"
#include "policies/scheduling/quota_book.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "policies/scheduling/scheduler.hpp"
#include "sim/model/id_table.hpp"

namespace acme::policies {

/// How long a preemption counts as outstanding when its JobEnded never comes (the engine may find it
/// moot: the job was already saving, hung or recovering). An hour covers a checkpoint write of the
/// largest model of the paper (123B parameters, ~1.5 TB of state) at a node's 200 Gb/s NIC (~1 min) by a
/// wide margin.
inline constexpr double PREEMPTION_WAIT_LIMIT_S = 3600.0;
/// "No limit" for counts: the depth of a pass that examines the whole queue, a memo that rules out nothing.
inline constexpr std::uint32_t NO_LIMIT = std::numeric_limits<std::uint32_t>::max();

/// What changed since the previous round, as far as deciding starts is concerned.
struct RoundChanges {
  bool released = false;                 ///< GPUs were freed: a job ended (any cause) or a node came back
  bool nodes_down = false;               ///< a node went down (reservations computed on it are void)
  bool overrun = false;                  ///< a running job passed its estimated end (plans built on it are void)
  bool triggered = false;                ///< an event other than a wake-up came (submission, end, node change)
  std::vector<model::JobId> arrived;     ///< GPU jobs queued this round (new or back after preemption)
  std::vector<model::JobId> cpu_arrived; ///< CPU jobs queued this round

  /// Nothing but arrivals: every job that waited before still cannot start where it could not.
  bool arrivals_only() const { return !released && !nodes_down && !overrun; }
};

/// Why the previous pass over a queue stopped (decides what an arrival-only round must look at).
enum class PassEnd : std::uint8_t {
  QUEUE_EXHAUSTED, ///< every queued job was examined
  NO_FREE_GPUS,    ///< the free GPUs ran out
  DEPTH,           ///< the depth limit was reached
  STOPPED,         ///< a job blocked the pass or preemptions were asked for
};

/// Which pass is asking a policy to decide for a job.
enum class PassKind : std::uint8_t {
  FULL,     ///< the queue in order, from its first job
  ARRIVALS, ///< only the jobs queued this round, in queue order (nothing else changed)
  BACKFILL, ///< under a cadence (PassCadence): the periodic backfill pass, the queue in order
};

/// What a round with nothing but arrivals needs (QueueScheduler::on_arrivals).
enum class ArrivalsRound : std::uint8_t {
  EXAMINE,   ///< examine the arrivals alone
  SKIP,      ///< none of them can start: they wait behind the jobs already waiting
  FULL_PASS, ///< they change what the jobs already examined may do: pass over the whole queue
};

/// What a pass keeps of a queued whole-GPU job that the quotas and limits could admit (it passed
/// reject_if_never_admitted): enough for decide_brief() to decide without the job's entry. Eight bytes,
/// so that a pass over a long backlog reads few cache lines; a default one is no brief.
class JobBrief {
public:
  JobBrief() = default;
  /// A brief of `job`, or none (nullopt) for a CPU job, a fractional one or one too large for its size field.
  static std::optional<JobBrief> of(const model::JobSpec& job) {
    if (job.gpus == 0 || job.is_fractional() || job.gpus > GPU_MASK) {
      return std::nullopt;
    }
    JobBrief brief;
    brief.user_ = job.user;
    brief.gpus_and_type_ = job.gpus | (static_cast<std::uint32_t>(job.type) << TYPE_SHIFT);
    return brief;
  }
  bool known() const { return gpus_and_type_ != 0; }
  std::uint32_t gpus() const { return gpus_and_type_ & GPU_MASK; }
  model::UserId user() const { return user_; }
  model::JobType type() const { return static_cast<model::JobType>(gpus_and_type_ >> TYPE_SHIFT); }
  friend bool operator==(const JobBrief&, const JobBrief&) = default;

private:
  static constexpr std::uint32_t TYPE_SHIFT = 28;
  static constexpr std::uint32_t GPU_MASK = (std::uint32_t{1} << TYPE_SHIFT) - 1;
  model::UserId user_{};
  std::uint32_t gpus_and_type_ = 0; ///< GPUs in the low 28 bits, the job type above
};
static_assert(model::JOB_TYPE_COUNT <= 16, "JobBrief keeps the job type in 4 bits");

/// The skeleton's settings, taken from a policy's parameters.
struct QueueSchedulerConfig {
  std::uint32_t depth = NO_LIMIT;   ///< jobs a full pass examines at most (the policy's queue_depth)
  EstimatorParams estimator;        ///< runtime estimates (reservations, shortest-first keys)
  std::optional<QuotaParams> quota; ///< GPU quotas: admission, rejection of jobs they never admit, reclaim
  model::WaitReason quota_wait = model::WaitReason::QUOTA; ///< what a job the quotas hold back waits for
  CadenceParams cadence; ///< when passes run (none: a full pass at every event); event_depth is `depth`
  LimitParams limits;    ///< Slurm's QoS and association limits (none by default)
};

/// The skeleton of every queue-based scheduler. It turns events into queue changes, serves CPU jobs
/// first-come first-served on the cluster's CPU pool, remembers the jobs it started (estimates,
/// reservations, the estimator's learning) and the preemptions it asked for, and runs the passes:
/// - a full pass examines the GPU queue in order, at most `depth` jobs, until no job can start; entries
///   the view no longer shows queued are dropped on the way;
/// - in a round with nothing but arrivals, only the arrivals are examined (every other job still cannot
///   start where it could not), which keeps long queues cheap;
/// - a job that preemptions were asked for (the claimant) is served first until it starts, and its
///   victims' free GPUs are kept for it;
/// - under a cadence (QueueSchedulerConfig::cadence), passes run as Slurm runs them: strict-order main
///   passes at events (at most `depth` jobs) and every sched_interval, backfill passes every bf_interval
///   within their test budget; the scheduler asks to be woken up (CallMeLater) for the periodic passes.
/// A policy supplies its queue (gpu_queue) and its decision for one job (decide); hooks refine the rest.
class QueueScheduler : public Scheduler {
public:
  explicit QueueScheduler(QueueSchedulerConfig config = {});

  std::vector<model::Decision> on_events(std::span<const model::Event> events, const model::ClusterView& cluster) final;

  /// The quota accounting; nullptr without quotas or before the first round.
  const QuotaBook* quota() const { return quota_ ? &*quota_ : nullptr; }
  /// The first job the last full pass left waiting (the queue's blocked head), if any.
  std::optional<model::JobId> head() const { return head_; }
  /// Whether passes may decide for a job from its brief (decide_brief) instead of reading its entry
  /// (on by default; off decides every job from its entry, with the same decisions: tests compare).
  void use_briefs(bool on) { use_briefs_ = on; }

protected:
  /// The policy's GPU queue (the passes walk it; the skeleton drops started and stale jobs from it).
  virtual PassQueue& gpu_queue() = 0;
  /// What queued `entry`, examined by a pass of `kind`, does now: start() it, reject() it, try_preempt()
  /// for it, or let it wait. Called with free_ holding what is still free this round.
  virtual Step decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) = 0;

  /// decide() for a job from its brief alone, when the brief settles it: the step decide() would
  /// return, with no decision emitted (hold() may be called); nullopt when decide() needs the entry.
  /// By default always nullopt.
  virtual std::optional<Step> decide_brief(const JobBrief& job, PassKind kind);
  /// A GPU job entered the queue (new, or back after preemption); by default at its submission time.
  virtual void enqueue(const model::JobEntry& entry);
  /// Called at the start of every round; true when every queued job must be examined again (the keys
  /// were recomputed, jobs changed level).
  virtual bool prepare_round(const model::ClusterView& cluster);
  /// In a round with nothing but arrivals (`arrivals` in queue order): what to examine. By default the
  /// arrivals alone.
  virtual ArrivalsRound on_arrivals(const model::ClusterView& cluster, const std::vector<QueueKey>& arrivals);
  /// A pass of `kind` begins (the memos of the pass are already reset).
  virtual void begin_pass(PassKind kind);
  /// Whether the policy's rules allow a preemption now; by default quota reclaim, when borrowers hold
  /// GPUs that owners may take back.
  virtual bool preemption_possible() const;
  /// Running jobs whose preemption lets `entry` start; empty when none does. By default the quota
  /// borrowers plan_reclaim picks.
  virtual std::vector<model::JobId> plan_preemption(const model::JobEntry& entry);
  /// Accounting hooks (fair share, queue levels, reservations); the skeleton has already dropped a
  /// started job from the queue and counted it against its quota.
  virtual void on_job_started(const RunningJob& job);
  virtual void on_job_stopped(const RunningJob& job, model::EndCause cause);

  /// The reason the job decide() is deciding for waits, when it is not the skeleton's default
  /// (WAITING, BLOCKED: Resources; PREEMPTED: Preemption; SKIPPED: none).
  void hold(model::WaitReason reason) { held_for_ = reason; }
  /// What a job the quotas hold back waits for (QueueSchedulerConfig::quota_wait).
  model::WaitReason quota_wait() const { return config_.quota_wait; }
  /// Notes `reason` for a queued job unless it is already its noted reason.
  void note_wait(model::JobId job, model::WaitReason reason, std::vector<model::Decision>& out);
  /// Removes a job from the GPU queue and from what the skeleton keeps of queued jobs.
  void dequeue(model::JobId job);
  /// Starts a queued GPU job: takes its GPUs from free_, remembers it as running, emits StartJob.
  void start(const model::JobEntry& entry, model::Placement placement, std::vector<model::Decision>& out);
  /// Rejects a job the quotas could never admit, even on an empty cluster (true); false otherwise.
  bool reject_if_never_admitted(const model::JobSpec& job, std::vector<model::Decision>& out);
  /// How the job would run under the quotas right now (OWNED without quotas).
  Admission admission(const model::JobSpec& job) const;
  /// The QoS or association limit that holds the job back now, if any (LimitParams).
  std::optional<model::WaitReason> limit_hold(const model::JobSpec& job) const {
    return limits_ ? limits_->holds(job) : std::nullopt;
  }
  /// limit_hold() for a whole-GPU job known by its brief.
  std::optional<model::WaitReason> limit_hold(const JobBrief& job) const {
    return limits_ ? limits_->holds(job.type(), job.user(), std::uint64_t{job.gpus()} * model::MILLI_PER_GPU)
                   : std::nullopt;
  }
  /// Tries to place `entry` on the round's free resources without starting it.
  std::optional<model::Placement> try_place(const model::JobEntry& entry);
  /// try_place, unless a whole-GPU job at least as large did not fit earlier in this pass (a fractional
  /// job may still find room on a shared GPU); a job that does not fit is remembered.
  std::optional<model::Placement> place_unless_known_unfit(const model::JobEntry& entry);
  bool known_unfit(const model::JobSpec& job) const { return !job.is_fractional() && known_unfit(job.gpus); }
  /// Whether a whole-GPU job of this size is at least as large as one that did not fit in this pass.
  bool known_unfit(std::uint32_t gpus) const { return gpus >= min_unfit_; }
  /// Whether try_preempt could ask for a preemption for a job of `gpus` GPUs now.
  bool may_preempt_for(std::uint32_t gpus) const { return may_preempt() && gpus < min_unpreemptable_; }
  /// Whether a whole-GPU job of `gpus` GPUs might start now (may_fit and not known_unfit).
  bool may_fit_whole(std::uint32_t gpus) const { return gpus <= free_.free_gpus_total() && !known_unfit(gpus); }
  void note_unfit(const model::JobSpec& job);
  /// Asks for the preemption of plan_preemption's victims and makes `entry` the claimant (true). False
  /// when no preemption is possible, none helps, or none helped a job at least as large in this pass.
  bool try_preempt(const model::JobEntry& entry, std::vector<model::Decision>& out);
  /// No job at all can start now: no free GPU and no shared GPU with possible room.
  bool no_room() const {
    return free_.free_gpus_total() == 0 && free_.view().nodes_with_shared_gpus().empty() &&
           free_.share_promises().empty();
  }
  /// Whether a job of this spec might start now (cheap necessary condition; see may_fit_now).
  bool may_fit(const model::JobSpec& job) const { return may_fit_now(job, free_); }
  /// Whether the head of the last full pass still waits and every arrival sorts after it.
  bool arrivals_behind_head(const model::ClusterView& cluster, const std::vector<QueueKey>& arrivals);
  /// Estimated service still to run for a queued job: its estimate less what earlier attempts ran;
  /// a job that already ran past its estimate is expected to run as long again.
  double remaining_estimate_s(const model::JobEntry& entry) const;
  /// The queued GPU job `id`, or nullptr when the view no longer shows it queued (stale entry).
  static const model::JobEntry* queued_entry(const model::ClusterView& cluster, model::JobId id);
  PassEnd last_pass_end() const { return last_end_; }
  /// Whether passes follow a cadence (then only BACKFILL passes backfill).
  bool cadenced() const { return config_.cadence.enabled(); }
  double now_s() const { return now_s_; }

  RuntimeEstimator estimator_;
  RunningJobs running_;
  FreeResources free_;

private:
  void intake(const model::Event& event, const model::ClusterView& cluster, RoundChanges& changes);
  void job_ended(const model::JobEnded& ended, const model::ClusterView& cluster, RoundChanges& changes);
  void queue_again(const model::ClusterView& cluster, model::JobId id, RoundChanges& changes);
  void schedule_gpus(const model::ClusterView& cluster, const RoundChanges& changes, std::vector<model::Decision>& out);
  void full_pass(const model::ClusterView& cluster, std::vector<model::Decision>& out, PassKind kind,
                 std::uint32_t depth);
  /// Prefetches the brief and wait note of the job the pass will probably reach a few steps on.
  void prefetch_ahead(const PassQueue& queue) const;
  void cadenced_round(const model::ClusterView& cluster, const RoundChanges& changes, bool reordered,
                      std::vector<model::Decision>& out);
  /// Whether the job a pass found waiting at the head of the queue is still queued.
  bool head_waits(const model::ClusterView& cluster);
  /// Under a cadence, a backfill pass tests at most bf_max_job_user jobs per user: false past it.
  bool within_user_budget(model::UserId user);
  bool arrivals_pass(const model::ClusterView& cluster, const RoundChanges& changes, std::vector<model::Decision>& out);
  void begin(PassKind kind);
  bool serve_claimant(const model::ClusterView& cluster, std::vector<model::Decision>& out);
  bool may_preempt() const { return preempting_.empty() && !claimant_ && preemption_possible(); }
  void start_cpu_jobs(const model::ClusterView& cluster, std::vector<model::Decision>& out);
  /// Notes why the round's arrivals wait until a pass examines them: "None" while batch_sched_delay
  /// defers them (no pass has looked at them yet, as Slurm reports it), else "Priority".
  void note_arrivals(const RoundChanges& changes, std::vector<model::Decision>& out);
  /// After a main pass: the deferred arrivals it neither started nor examined wait behind the job it
  /// stopped at, or beyond its depth, and are noted "Priority" (Slurm notes the jobs it passes over so).
  void note_passed_over(const model::ClusterView& cluster, std::vector<model::Decision>& out);
  /// Notes "Priority" for the queued CPU jobs: a pass ran, but they rank behind a GPU job that waits.
  void note_cpu_behind_head(const model::ClusterView& cluster, std::vector<model::Decision>& out);
  /// Whether batch_sched_delay defers submissions to slurmctld's background loop.
  bool batch_deferred() const { return cadenced() && config_.cadence.batch_sched_delay_s > 0.0; }
  /// decide() for one queued job, then its wait reason noted.
  Step examine(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out);
  /// examine() by the job's brief when it has one and decide_brief() settles it, else by its entry.
  Step examine_queued(const model::ClusterView& cluster, model::JobId id, const JobBrief& brief, PassKind kind,
                      std::vector<model::Decision>& out);
  /// How noted_ stores a reason: its value plus one (0: none noted yet).
  static std::uint8_t noted_code(model::WaitReason reason) {
    return static_cast<std::uint8_t>(static_cast<std::uint8_t>(reason) + 1);
  }
  /// Notes the wait reason of a job decide() returned `step` for.
  void note_step(model::JobId job, Step step, std::vector<model::Decision>& out);
  /// Under batch_sched_delay: finds the round's interactive arrivals and, with `allocate` (no main pass
  /// this round), starts those first in the queue as they are submitted if they fit (slurmctld's
  /// job_allocate).
  void allocate_interactive(const model::ClusterView& cluster, const RoundChanges& changes, bool allocate,
                            std::vector<model::Decision>& out);
  /// Whether a job of `type` arriving now is an interactive allocation: the type's share of its
  /// arrivals, every 1/share-th one (deterministic, in arrival order).
  bool next_is_interactive(model::JobType type);

  QueueSchedulerConfig config_;
  std::optional<QuotaBook> quota_;
  std::optional<LimitBook> limits_;
  JobQueue cpu_queue_;
  std::map<model::JobId, double> preempting_; ///< victim -> when its preemption was asked
  /// A job that preemptions were issued for: served first until it starts (its victims' GPUs are its).
  std::optional<model::JobId> claimant_;
  std::optional<model::JobId> head_;
  PassEnd last_end_ = PassEnd::QUEUE_EXHAUSTED;
  std::uint32_t min_unfit_ = NO_LIMIT;         ///< smallest whole-GPU size that did not fit in this pass
  std::uint32_t min_unpreemptable_ = NO_LIMIT; ///< smallest size no preemption helped in this pass
  double now_s_ = 0.0;
  std::optional<model::WaitReason> held_for_; ///< set by hold() during one decide()
  model::IdTable<std::uint8_t> noted_;        ///< queued GPU jobs' last noted reason, plus one (0: none yet)
  model::IdTable<JobBrief> briefs_;           ///< queued whole-GPU jobs found admissible (decide_brief)
  bool use_briefs_ = true;
  PassCadence cadence_;
  std::unordered_map<model::UserId, std::uint32_t> tested_by_user_; ///< in the current backfill pass
  bool passes_ran_ = true;       ///< a pass ran this round (under a cadence, CPU jobs start only at passes)
  bool cpu_behind_head_ = false; ///< a pass ran this round, but CPU jobs rank behind a GPU job that waits
  std::array<std::uint64_t, model::JOB_TYPE_COUNT> arrivals_by_type_{}; ///< for next_is_interactive
  std::vector<model::JobId> unexamined_; ///< arrivals noted "None" since the last main pass
};

} // namespace acme::policies
