#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "validate/workload/workload_reference.hpp"
#include "validate/workload/workload_stats.hpp"

namespace acme::validate {

/// How a row is judged.
enum class CheckKind : std::uint8_t {
  KS,       ///< Kolmogorov-Smirnov distance on the paper's grid, <= tolerance
  POINTS,   ///< shares in percent, |generated - paper| <= tolerance percentage points
  RELATIVE, ///< |generated / paper - 1| <= tolerance
  INFO,     ///< shown, not judged
};

/// One line of the report.
struct CheckRow {
  std::string label;
  double generated = 0.0;
  double paper = 0.0;
  double curves = -1.0; ///< the value the released-trace curves imply (< 0: not shown)
  CheckKind kind = CheckKind::INFO;
  double tolerance = 0.0;
  double error = 0.0; ///< KS distance, percentage points or relative error
  bool pass = true;
  double one_run_min = 0.0; ///< the generated value's range over the pooled replicas, one run each
  double one_run_max = 0.0;
};

// Tolerances (issue 3): KS <= 0.05; shares within 1.5 points by count and 3 by GPU time;
// Table 2 medians within 15%, means within 25%.
inline constexpr double KS_TOLERANCE = 0.05;
inline constexpr double COUNT_SHARE_POINTS = 1.5;
inline constexpr double GPU_TIME_SHARE_POINTS = 3.0;
inline constexpr double MEDIAN_RELATIVE = 0.15;
inline constexpr double MEAN_RELATIVE = 0.25;
/// The GPU time of all GPU jobs (the offered load, which queueing delay depends on most) within 10%.
inline constexpr double GPU_TIME_RELATIVE = 0.10;

/// Every row for one cluster. `volume` is the expected fraction of the paper's job counts per run
/// (scale x days / 183); `stats` pools `replicas` runs.
std::vector<CheckRow> compare_cluster(const ClusterStats& stats, const PaperCluster& paper, double volume,
                                      std::size_t replicas = 1);

/// Fills each row's one-run range from the same rows computed on single replicas.
void add_one_run_ranges(std::vector<CheckRow>& pooled, const std::vector<std::vector<CheckRow>>& replicas);

/// Prints a titled table of rows; returns the number of failed checks.
std::size_t print_rows(std::FILE* out, const std::string& title, const std::vector<CheckRow>& rows);

} // namespace acme::validate
