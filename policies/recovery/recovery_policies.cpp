#include <algorithm>

#include "policies/recovery/automatic_recovery.hpp"
#include "policies/recovery/manual_recovery.hpp"
#include "policies/registry.hpp"
#include "sim/config/distribution_parse.hpp"

namespace acme::policies {
namespace {

constexpr double DAY_S = 86400.0;
constexpr int SATURDAY = 5;
constexpr int DAYS_PER_WEEK = 7;

/// Working hours lie inside one day; the error names the key that was given.
void check_working_hours(const config::Node& node, const ManualRecoveryParams& p) {
  if (p.work_start_s >= DAY_S && node.is_map() && node["work_start"].is_defined()) {
    node["work_start"].fail("expected a time of day before 24h, such as \"9h\"");
  }
  if (p.work_end_s > p.work_start_s && p.work_end_s <= DAY_S) {
    return;
  }
  const char* key = node.is_map() && !node["work_end"].is_defined() ? "work_start" : "work_end";
  std::string what = "expected work_start < work_end <= 24h, got work_start " + number_text(p.work_start_s) +
                     " s and work_end " + number_text(p.work_end_s) + " s";
  node.is_map() ? node[key].fail(what) : node.fail(what);
}

bool is_off_day(int weekday, bool weekends_off) {
  return weekends_off && weekday >= SATURDAY;
}

} // namespace

const ParamTable<ManualRecoveryParams>& ManualRecoveryParams::table() {
  using P = ManualRecoveryParams;
  static const ParamTable<P> t =
      ParamTable<P>{duration_param("work_start", &P::work_start_s, "working hours start (local time)"),
                    duration_param("work_end", &P::work_end_s, "working hours end (local time)"),
                    flag_param("weekends_off", &P::weekends_off, "Saturdays and Sundays are off hours"),
                    distribution_param("day_detect", &P::day_detect, "detection delay in working hours"),
                    distribution_param("night_detect", &P::night_detect,
                                       "detection delay off hours (capped by the next morning)"),
                    duration_param("hang_timeout", &P::hang_timeout_s, "a hang is noticed only after this timeout"),
                    distribution_param("diagnose", &P::diagnose, "human diagnosis"),
                    distribution_param("isolate", &P::isolate, "human isolation of the faulty node")}
          .check(check_working_hours);
  return t;
}

double ManualRecovery::until_working_hours_s(double time_of_day_s, int weekday) const {
  double wait = 0.0;
  double t = time_of_day_s;
  for (int d = 0; d <= DAYS_PER_WEEK; ++d) {
    int day = (weekday + d) % DAYS_PER_WEEK;
    if (!is_off_day(day, params_.weekends_off)) {
      if (t < params_.work_start_s) {
        return wait + params_.work_start_s - t;
      }
      if (t < params_.work_end_s) {
        return wait;
      }
    }
    wait += DAY_S - t;
    t = 0.0;
  }
  return wait;
}

RecoveryPlan ManualRecovery::on_failure(const FailureNotice& f, model::Rng& rng) const {
  RecoveryPlan plan;
  plan.human = true;
  double noticed_after = f.hang ? params_.hang_timeout_s : 0.0;
  double tod = std::fmod(f.local_time_of_day_s + noticed_after, DAY_S);
  int day = (f.local_weekday + static_cast<int>((f.local_time_of_day_s + noticed_after) / DAY_S)) % DAYS_PER_WEEK;
  double to_morning = until_working_hours_s(tod, day);
  double detect = to_morning == 0.0
                      ? params_.day_detect.sample(rng)
                      : std::min(params_.night_detect.sample(rng), to_morning + params_.day_detect.sample(rng));
  plan.detect_s = noticed_after + detect;
  plan.diagnose_s = params_.diagnose.sample(rng);
  plan.isolate_s = params_.isolate.sample(rng);
  return plan; // then the user resubmits: the job queues again
}

const ParamTable<AutomaticRecoveryParams>& AutomaticRecoveryParams::table() {
  using P = AutomaticRecoveryParams;
  static const ParamTable<P> t{
      duration_param("detect_crash", &P::detect_crash_s, "detection of a crash"),
      duration_param("detect_hang", &P::detect_hang_s, "detection of a hang (stalled log)"),
      distribution_param("diagnose", &P::diagnose, "log rules + LLM agent"),
      duration_param("pair_round_base", &P::pair_round_base_s, "one round of the pair test"),
      duration_param("pair_round_per_node", &P::pair_round_per_node_s, "... plus this per node of the job"),
      count_param("pair_rounds", &P::pair_rounds, "rounds of the pair test"),
      number_param("human_share", &P::human_share, "share of failures that still need a person (handled as `manual`)",
                   Bounds::share()),
      nested_param("manual", &P::manual, ManualRecoveryParams::table(), "parameters of the manual path")};
  return t;
}

double AutomaticRecovery::pair_test_s(std::uint32_t nodes) const {
  return params_.pair_rounds * (params_.pair_round_base_s + params_.pair_round_per_node_s * nodes);
}

RecoveryPlan AutomaticRecovery::on_failure(const FailureNotice& f, model::Rng& rng) const {
  if (rng.bernoulli(params_.human_share)) {
    return manual_.on_failure(f, rng);
  }
  RecoveryPlan plan;
  plan.detect_s = f.hang ? params_.detect_hang_s : params_.detect_crash_s;
  plan.diagnose_s = params_.diagnose.sample(rng);
  plan.isolate_s = pair_test_s(f.nodes);
  plan.keep_nodes = true;
  plan.restart_at_once = true;
  return plan;
}

} // namespace acme::policies
