#pragma once

#include <array>
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

/// Queueing-delay CDF on the Acme paper's grid (its queueing-delay CDFs use a log2 x axis 2^0..2^15 s) and
/// the share of jobs started within 1 s, 1 min and 1 h. Shares are 0..1 (all zero when empty).
struct QueueShares {
  static constexpr std::size_t GRID_POINTS = 16; ///< thresholds 2^0 .. 2^15 s
  /// Simulated times reach ~1.6e7 s (183 days), where one ulp is ~2e-9 s: a microsecond is far above
  /// that rounding noise and far below anything the grid resolves (assumption).
  static constexpr double TIME_TOLERANCE_S = 1e-6;
  std::array<double, GRID_POINTS> cdf{}; ///< share of delays <= 2^k s, k = 0..15
  double within_1s = 0.0;
  double within_60s = 0.0;
  double within_1h = 0.0;
};

/// Summarises sorted queueing delays (seconds) with GRID_POINTS + 2 binary searches: no extra pass.
/// A delay counts as within a threshold when it exceeds it by at most TIME_TOLERANCE_S, so that
/// float rounding of start - submit (e.g. 60.000000001 s) does not move a job across a boundary.
QueueShares queue_shares(const std::vector<double>& sorted_delays_s);

} // namespace acme::metrics
