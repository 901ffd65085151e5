#include "policies/checkpoint/interval_policies.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/limits.hpp"

namespace acme::policies {

const ParamTable<FixedIntervalParams>& FixedIntervalParams::table() {
  static const ParamTable<FixedIntervalParams> t = ParamTable<FixedIntervalParams>{
      Param<FixedIntervalParams>{"interval", "computation between checkpoints, e.g. 30min (required)",
                                 [](const config::Node& v, FixedIntervalParams& p) {
                                   p.interval_s = v.as_duration_s();
                                   // A shorter interval would checkpoint without end (1us once never finished).
                                   expect_within(v, p.interval_s, Bounds{model::limits::MIN_CHECKPOINT_INTERVAL_S},
                                                 true);
                                 },
                                 [](const FixedIntervalParams&) {
                                   return std::string("(required)");
                                 }}}.check([](const config::Node& node, const FixedIntervalParams& p) {
    if (p.interval_s <= 0.0) {
      node.fail("missing key \"interval\"; expected a duration such as \"30min\"");
    }
  });
  return t;
}

const ParamTable<OptimalIntervalParams>& OptimalIntervalParams::table() {
  static const ParamTable<OptimalIntervalParams> t{
      duration_param("min_interval", &OptimalIntervalParams::min_interval_s, "lower bound on the interval",
                     Bounds{model::limits::MIN_CHECKPOINT_INTERVAL_S})};
  return t;
}

double young_interval_s(double cost_s, double mtbf_s) {
  if (!std::isfinite(mtbf_s)) {
    return NEVER_S;
  }
  return std::sqrt(2.0 * cost_s * mtbf_s);
}

double daly_interval_s(double cost_s, double mtbf_s) {
  if (!std::isfinite(mtbf_s)) {
    return NEVER_S;
  }
  if (cost_s >= 2.0 * mtbf_s) {
    return mtbf_s;
  }
  constexpr double THIRD = 1.0 / 3.0;
  constexpr double NINTH = 1.0 / 9.0;
  double ratio = cost_s / (2.0 * mtbf_s);
  return std::sqrt(2.0 * cost_s * mtbf_s) * (1.0 + THIRD * std::sqrt(ratio) + NINTH * ratio) - cost_s;
}

double OptimalIntervalCheckpoint::interval_s(const CheckpointSituation& s) const {
  double t =
      higher_order_ ? daly_interval_s(s.checkpoint_cost_s, s.mtbf_s) : young_interval_s(s.checkpoint_cost_s, s.mtbf_s);
  return std::max(t, min_interval_s_);
}

} // namespace acme::policies
