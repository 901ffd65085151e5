#include "acme/metrics/stats.hpp"

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
