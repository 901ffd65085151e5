#pragma once

#include <cmath>
#include <utility>
#include <vector>

namespace acme::validate {

/// Mean and standard error of the mean of `values` (one figure per seed; at least two values).
inline std::pair<double, double> mean_and_se(const std::vector<double>& values) {
  double n = static_cast<double>(values.size());
  double mean = 0.0;
  for (double v : values) {
    mean += v / n;
  }
  double var = 0.0;
  for (double v : values) {
    var += (v - mean) * (v - mean) / (n - 1.0);
  }
  return {mean, std::sqrt(var / n)};
}

} // namespace acme::validate
