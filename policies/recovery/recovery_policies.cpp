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

void read_distribution(const config::Node& node, const char* key, model::Distribution& out) {
  if (config::Node child = node[key]; child.is_defined()) {
    out = config::parse_duration_distribution(child);
  }
}

bool is_off_day(int weekday, bool weekends_off) {
  return weekends_off && weekday >= SATURDAY;
}

} // namespace

ManualRecoveryParams ManualRecoveryParams::parse(const config::Node& node) {
  ManualRecoveryParams p;
  if (!node.is_defined() || !node.is_map()) {
    return p;
  }
  p.work_start_s = node.get_or("work_start", p.work_start_s, &config::Node::as_duration_s);
  p.work_end_s = node.get_or("work_end", p.work_end_s, &config::Node::as_duration_s);
  if (p.work_start_s >= DAY_S) {
    node["work_start"].fail("expected a time of day before 24h, such as \"9h\"");
  }
  if (p.work_end_s <= p.work_start_s || p.work_end_s > DAY_S) {
    node[node["work_end"].is_defined() ? "work_end" : "work_start"].fail(
        "expected work_start < work_end <= 24h, got work_start " + number_text(p.work_start_s) + " s and work_end " +
        number_text(p.work_end_s) + " s");
  }
  p.weekends_off = node.get_or("weekends_off", p.weekends_off, &config::Node::as_bool);
  read_distribution(node, "day_detect", p.day_detect);
  read_distribution(node, "night_detect", p.night_detect);
  p.hang_timeout_s = node.get_or("hang_timeout", p.hang_timeout_s, &config::Node::as_duration_s);
  read_distribution(node, "diagnose", p.diagnose);
  read_distribution(node, "isolate", p.isolate);
  return p;
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

AutomaticRecoveryParams AutomaticRecoveryParams::parse(const config::Node& node) {
  AutomaticRecoveryParams p;
  if (!node.is_defined() || !node.is_map()) {
    return p;
  }
  p.detect_crash_s = node.get_or("detect_crash", p.detect_crash_s, &config::Node::as_duration_s);
  p.detect_hang_s = node.get_or("detect_hang", p.detect_hang_s, &config::Node::as_duration_s);
  read_distribution(node, "diagnose", p.diagnose);
  p.pair_round_base_s = node.get_or("pair_round_base", p.pair_round_base_s, &config::Node::as_duration_s);
  p.pair_round_per_node_s = node.get_or("pair_round_per_node", p.pair_round_per_node_s, &config::Node::as_duration_s);
  if (config::Node rounds = node["pair_rounds"]; rounds.is_defined()) {
    p.pair_rounds = static_cast<int>(rounds.as_count());
  }
  if (config::Node share = node["human_share"]; share.is_defined()) {
    p.human_share = share.as_double();
    if (p.human_share < 0.0 || p.human_share > 1.0) {
      share.fail("expected a share between 0 and 1");
    }
  }
  p.manual = ManualRecoveryParams::parse(node["manual"]);
  return p;
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
