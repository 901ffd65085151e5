#include "sim/metrics/stats.hpp"

#include <algorithm>
#include <cmath>

namespace acme::metrics {

double percentile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) {
    return 0.0;
  }
  constexpr double HUNDRED = 100.0;
  double rank = q / HUNDRED * static_cast<double>(sorted.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(rank));
  std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = rank - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

double cdf_sorted(const std::vector<double>& sorted, double x) {
  if (sorted.empty()) {
    return 0.0;
  }
  auto it = std::upper_bound(sorted.begin(), sorted.end(), x, [](double v, double e) { return v < e; });
  return static_cast<double>(it - sorted.begin()) / static_cast<double>(sorted.size());
}

QueueShares queue_shares(const std::vector<double>& sorted_delays_s) {
  constexpr double TOL = QueueShares::TIME_TOLERANCE_S;
  constexpr double MINUTE_S = 60.0;
  constexpr double HOUR_S = 3600.0;
  QueueShares q;
  double threshold_s = 1.0;
  for (double& share : q.cdf) {
    share = cdf_sorted(sorted_delays_s, threshold_s + TOL);
    threshold_s *= 2.0;
  }
  q.within_1s = q.cdf[0];
  q.within_60s = cdf_sorted(sorted_delays_s, MINUTE_S + TOL);
  q.within_1h = cdf_sorted(sorted_delays_s, HOUR_S + TOL);
  return q;
}

Distribution summarise(std::vector<double>& values) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) {
    return d;
  }
  std::sort(values.begin(), values.end());
  double sum = 0.0;
  for (double v : values) {
    sum += v;
  }
  constexpr double P50 = 50.0;
  constexpr double P90 = 90.0;
  constexpr double P99 = 99.0;
  d.mean = sum / static_cast<double>(values.size());
  d.p50 = percentile_sorted(values, P50);
  d.p90 = percentile_sorted(values, P90);
  d.p99 = percentile_sorted(values, P99);
  d.max = values.back();
  return d;
}

} // namespace acme::metrics
