#include "policies/checkpoint/interval_policies.hpp"

#include <algorithm>
#include <cmath>

namespace acme::policies {

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
