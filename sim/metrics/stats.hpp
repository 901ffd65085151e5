#pragma once

#include <vector>

namespace acme::metrics {

/// Summary of a sample: mean and percentiles by linear interpolation between order statistics
/// (the definition numpy and pandas use by default), so figures compare with the authors' notebook.
struct Distribution {
  std::size_t count = 0;
  double mean = 0.0;
  double p50 = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
  double max = 0.0;
};

/// Sorts `values` in place and summarises them (all zero when empty).
Distribution summarise(std::vector<double>& values);
/// Percentile q in [0, 100] of sorted values.
double percentile_sorted(const std::vector<double>& sorted, double q);
/// Share (0..1) of values <= x in sorted values.
double cdf_sorted(const std::vector<double>& sorted, double x);

} // namespace acme::metrics
