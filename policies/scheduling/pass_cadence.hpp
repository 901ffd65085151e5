#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <vector>

#include "policies/param_table.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// When a Slurm-like scheduler runs its passes (slurm.conf(5) names). All zeros (the default of every
/// scheduler but `slurm`): a full pass at every event, backfilling inside it, as the schedulers of a
/// simulator usually do. With an interval set, jobs start only at pass instants:
/// - event passes: on submissions and completions, over at most `event_depth` jobs (Slurm
///   default_queue_depth), no two closer than `min_interval_s` (sched_min_interval; a deferred one runs
///   when the interval is over); strict order within a partition (no backfilling). With
///   `batch_sched_delay_s` set, a submission starts nothing by itself, as sbatch's does in slurmctld
///   (job_allocate tests a batch job without allocating it): it asks slurmctld's background loop, which
///   wakes every second (BACKGROUND_TICK_S), for a pass, and that loop runs one at its first wake-up after
///   the submission that is at least batch_sched_delay after its previous pass (controller.c,
///   _slurmctld_background); a job's end still runs an event pass at once (the epilog-complete RPC calls
///   schedule());
/// - main passes every `main_interval_s` (sched_interval) over the whole queue, strict order;
/// - backfill passes every `bf_interval_s` (bf_interval), testing at most `bf_max_job_test` jobs and
///   `bf_max_job_user` per user. Slurm's bf_continue (resume a pass interrupted to release locks) has no
///   counterpart: a simulated pass takes no time.
/// Periodic passes fall on multiples of their interval (Slurm's timers are not aligned to the epoch;
/// aligning them keeps runs reproducible and is indistinguishable in distribution).
struct CadenceParams {
  static constexpr std::uint32_t NO_LIMIT = std::numeric_limits<std::uint32_t>::max();
  /// Slurm's default bf_max_job_test (slurm.conf(5), Slurm 23.02).
  static constexpr std::uint32_t SLURM_BF_MAX_JOB_TEST = 500;
  /// slurmctld's background loop sleeps 10 x 100 ms between its rounds (controller.c, Slurm 23.02), and
  /// compares times in whole seconds: its passes fall on whole seconds.
  static constexpr double BACKGROUND_TICK_S = 1.0;
  double main_interval_s = 0.0;
  double min_interval_s = 0.0;
  std::uint32_t event_depth = NO_LIMIT; ///< set from the scheduler's queue_depth
  double bf_interval_s = 0.0;
  std::uint32_t bf_max_job_test = SLURM_BF_MAX_JOB_TEST;
  std::uint32_t bf_max_job_user = 0; ///< 0: no limit (as in Slurm)
  double batch_sched_delay_s = 0.0;  ///< 0: a submission runs an event pass at once
  /// With `backfill: conservative`: how far ahead a backfill pass plans the jobs it tests (Slurm bf_window,
  /// default 1440 min) and the granularity of its planned times (bf_resolution, default 60 s).
  double bf_window_s = 86400.0;
  double bf_resolution_s = 60.0;
  /// Share of each job type's submissions (ALL_JOB_TYPES order) that are interactive allocations (srun,
  /// salloc) rather than batch jobs (sbatch). slurmctld allocates an interactive job as it is submitted
  /// when it is its partition's top-priority pending job and fits (job_allocate with allocate set);
  /// batch_sched_delay defers batch jobs only. Every share 0 (the default): all jobs are batch jobs.
  std::vector<double> interactive_share = std::vector<double>(model::JOB_TYPE_COUNT, 0.0);

  /// Whether passes follow the cadence (any interval set); otherwise every round is a full pass.
  bool enabled() const { return main_interval_s > 0.0 || bf_interval_s > 0.0; }
  /// The slurm.conf keys (sched_interval, sched_min_interval, bf_interval, bf_max_job_test,
  /// bf_max_job_user, batch_sched_delay, bf_window, bf_resolution) and `interactive`; default_queue_depth
  /// is the scheduler's queue_depth.
  static const ParamTable<CadenceParams>& table();
};

/// The passes one round runs.
struct RoundPlan {
  bool main = false;                                  ///< a strict-order pass from the queue's first job
  std::uint32_t main_depth = CadenceParams::NO_LIMIT; ///< jobs it examines at most
  bool background = false; ///< the main pass serves submissions made since earlier rounds (batch_sched_delay)
  bool backfill = false;   ///< a backfill pass
};

/// Decides, round by round, which passes run and when the scheduler must be woken up. A pure state
/// machine over simulated time: the scheduler tells it what triggered the round and whether anything
/// changed since its passes last ran.
class PassCadence {
public:
  explicit PassCadence(CadenceParams params) : params_(params) {}

  const CadenceParams& params() const { return params_; }
  /// The passes of a round at `now_s`. `events`: submissions, completions or node changes triggered it
  /// (not only a wake-up); `changed`: anything that may let a job start happened since the last round;
  /// `submissions_only`: the events were submissions alone (no job ended, no node changed).
  RoundPlan plan(double now_s, bool events, bool changed, bool submissions_only = false);
  /// After the round's passes: the wake-up to ask for (CALL_ME_LATER), if any. `waiting`: GPU jobs are
  /// still queued; `main_cut_short`: the main pass stopped at its depth with jobs left unexamined. A
  /// periodic pass is only woken for when something changed since that kind of pass last ran: an
  /// unchanged queue gives the same answer, so an idle backlog costs no rounds.
  std::optional<double> wake_up(double now_s, bool waiting, bool main_cut_short);

private:
  /// The next multiple of `interval_s` strictly after `now_s`.
  static double next_multiple(double now_s, double interval_s);
  /// The last multiple of `interval_s` strictly before `now_s`.
  static double last_multiple_before(double now_s, double interval_s);
  /// A background pass ran at `now_s` (it serves every submission asked for so far).
  void background_ran(double now_s);
  /// The first round: the periodic passes' first times.
  void start(double now_s);
  /// Periodic passes due before `now_s` with nothing changed since their kind last ran: counted as run.
  void skip_idle_passes(double now_s);
  /// Under batch_sched_delay: a round of submissions alone asks the background loop for a pass (and
  /// `events` no longer count); true when that pass is due now.
  bool background_due(double now_s, bool& events, bool submissions_only);

  CadenceParams params_;
  double last_event_pass_s_ = -std::numeric_limits<double>::infinity();
  bool started_ = false;
  bool deferred_ = false;   ///< an event pass was held back by min_interval
  bool main_dirty_ = false; ///< something changed since the last main or event pass
  bool bf_dirty_ = false;   ///< something changed since the last backfill pass
  double next_main_s_ = 0.0;
  double next_bf_s_ = 0.0;
  bool requested_ = false;                                              ///< submissions wait for a background pass
  double request_at_s_ = 0.0;                                           ///< when that pass may run
  double last_background_s_ = -std::numeric_limits<double>::infinity(); ///< slurmctld's last_sched_time
  std::set<double> armed_s_;                                            ///< wake-ups asked for and not yet come
};

} // namespace acme::policies
