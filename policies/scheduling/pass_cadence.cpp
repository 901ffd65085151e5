#include "policies/scheduling/pass_cadence.hpp"

#include <algorithm>
#include <cmath>

#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {

const ParamTable<CadenceParams>& CadenceParams::table() {
  using P = CadenceParams;
  static const ParamTable<P> t{
      duration_param("sched_interval", &P::main_interval_s,
                     "period of the main scheduling pass over the whole queue (Slurm sched_interval, 60s); 0s: "
                     "no cadence, a full pass at every event with backfilling inside it"),
      duration_param("sched_min_interval", &P::min_interval_s,
                     "least time between two event-triggered passes (Slurm sched_min_interval, 2us)"),
      duration_param("bf_interval", &P::bf_interval_s,
                     "period of the backfill pass (Slurm bf_interval, 30s); 0s: backfilling only without cadence"),
      count_param("bf_max_job_test", &P::bf_max_job_test, "jobs a backfill pass tests at most (Slurm default 500)"),
      count_param("bf_max_job_user", &P::bf_max_job_user,
                  "jobs of one user a backfill pass tests at most; 0: no limit (Slurm default)", 0),
      duration_param("batch_sched_delay", &P::batch_sched_delay_s,
                     "with it set, a submission starts nothing at once: slurmctld's background loop (a round every "
                     "second) runs a pass for it at least this long after its previous one (Slurm "
                     "SchedulerParameters batch_sched_delay, 3s); 0s: an event pass at every submission"),
      duration_param("bf_window", &P::bf_window_s,
                     "with backfill: conservative, how far ahead a backfill pass plans the jobs it tests (Slurm "
                     "bf_window, 1440 min)"),
      duration_param("bf_resolution", &P::bf_resolution_s,
                     "with backfill: conservative, the granularity of planned times: estimates round up to it "
                     "(Slurm bf_resolution, 60s)"),
      type_map_param("interactive", &P::interactive_share,
                     "share of a job type's submissions that are interactive allocations (srun, salloc): with "
                     "batch_sched_delay set, such a job starts as it is submitted when it is the first of the "
                     "queue and fits, as slurmctld allocates it; batch jobs (sbatch) wait for a pass",
                     Bounds::share())};
  return t;
}

double PassCadence::next_multiple(double now_s, double interval_s) {
  return (std::floor(now_s / interval_s) + 1.0) * interval_s;
}

double PassCadence::last_multiple_before(double now_s, double interval_s) {
  double at_or_before = next_multiple(now_s, interval_s) - interval_s;
  return at_or_before < now_s ? at_or_before : at_or_before - interval_s;
}

void PassCadence::background_ran(double now_s) {
  requested_ = false;
  last_background_s_ = now_s;
}

void PassCadence::start(double now_s) {
  // The periodic passes fall on multiples of their interval from the first round on.
  started_ = true;
  next_main_s_ = params_.main_interval_s > 0.0 ? next_multiple(now_s, params_.main_interval_s) : 0.0;
  next_bf_s_ = params_.bf_interval_s > 0.0 ? next_multiple(now_s, params_.bf_interval_s) : 0.0;
}

bool PassCadence::background_due(double now_s, bool& events, bool submissions_only) {
  if (params_.batch_sched_delay_s <= 0.0) {
    return false;
  }
  if (events && submissions_only) {
    if (!requested_) { // the background loop's first round after the submission, batch_sched_delay apart
      requested_ = true;
      request_at_s_ = std::max(next_multiple(now_s, CadenceParams::BACKGROUND_TICK_S),
                               last_background_s_ + params_.batch_sched_delay_s);
    }
    events = false; // the submission RPC starts nothing
  }
  return requested_ && now_s >= request_at_s_;
}

void PassCadence::skip_idle_passes(double now_s) {
  // slurmctld's timers fire whether or not anything waits; here no round is asked for when nothing changed
  // since a kind of pass last ran (wake_up). The passes due before this round then found nothing to do:
  // they count as run at their instants, so that a submission after them waits for its background pass
  // as in slurmctld (the main pass is the background loop's).
  if (params_.main_interval_s > 0.0 && now_s > next_main_s_ && !main_dirty_) {
    double missed_s = last_multiple_before(now_s, params_.main_interval_s);
    if (params_.batch_sched_delay_s > 0.0) {
      last_background_s_ = std::max(last_background_s_, missed_s);
    }
    next_main_s_ = missed_s + params_.main_interval_s; // due now when now is one of its instants
  }
  if (params_.bf_interval_s > 0.0 && now_s > next_bf_s_ && !bf_dirty_) {
    next_bf_s_ = last_multiple_before(now_s, params_.bf_interval_s) + params_.bf_interval_s;
  }
}

RoundPlan PassCadence::plan(double now_s, bool events, bool changed, bool submissions_only) {
  RoundPlan plan;
  if (!started_) {
    start(now_s);
  }
  armed_s_.erase(armed_s_.begin(), armed_s_.upper_bound(now_s));
  skip_idle_passes(now_s);
  main_dirty_ = main_dirty_ || changed;
  bf_dirty_ = bf_dirty_ || changed;
  bool background = background_due(now_s, events, submissions_only);
  bool event_pass = (events && changed) || deferred_ || background;
  // The same sum as the deferred wake-up's time (wake_up): at that instant the pass runs. A difference
  // (now - last < min) can round below the interval there and defer the pass to the same instant forever.
  if (event_pass && now_s < last_event_pass_s_ + params_.min_interval_s) {
    deferred_ = true;
    event_pass = false;
  }
  bool main_due = params_.main_interval_s > 0.0 && now_s >= next_main_s_;
  if (main_due) {
    next_main_s_ = next_multiple(now_s, params_.main_interval_s);
  }
  if ((main_due && main_dirty_) || event_pass) {
    plan.main = true;
    plan.main_depth = main_due ? CadenceParams::NO_LIMIT : params_.event_depth;
    plan.background = background || (main_due && requested_);
    main_dirty_ = false;
    deferred_ = false;
    last_event_pass_s_ = now_s;
  }
  if (params_.batch_sched_delay_s > 0.0 && (background || main_due)) {
    background_ran(now_s); // the periodic main pass is the background loop's too (it clears the requests)
  }
  bool bf_due = params_.bf_interval_s > 0.0 && now_s >= next_bf_s_;
  if (bf_due) {
    next_bf_s_ = next_multiple(now_s, params_.bf_interval_s);
    plan.backfill = bf_dirty_;
    bf_dirty_ = false;
  }
  return plan;
}

std::optional<double> PassCadence::wake_up(double now_s, bool waiting, bool main_cut_short) {
  if (!waiting) {
    main_dirty_ = false; // a periodic pass over an empty queue finds nothing: the next ones are idle
    bf_dirty_ = false;
  }
  main_dirty_ = main_dirty_ || main_cut_short;
  double at = std::numeric_limits<double>::infinity();
  if (deferred_) {
    at = last_event_pass_s_ + params_.min_interval_s;
  }
  if (requested_) {
    at = std::min(at, std::max(request_at_s_, next_multiple(now_s, CadenceParams::BACKGROUND_TICK_S)));
  }
  if (waiting && main_dirty_ && params_.main_interval_s > 0.0) {
    at = std::min(at, next_main_s_ > now_s ? next_main_s_ : next_multiple(now_s, params_.main_interval_s));
  }
  if (waiting && bf_dirty_ && params_.bf_interval_s > 0.0) {
    at = std::min(at, next_bf_s_ > now_s ? next_bf_s_ : next_multiple(now_s, params_.bf_interval_s));
  }
  if (!std::isfinite(at) || armed_s_.count(at) > 0) {
    return std::nullopt;
  }
  armed_s_.insert(at);
  return at;
}

} // namespace acme::policies
