#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/study/metrics_flatten.hpp"

namespace acme::study {

/// How far a metric may move before it counts: allowed = max(abs, rel * |baseline|).
struct Tolerance {
  double rel = 0.0;
  double abs = 0.0; ///< seconds for delays and JCT, a fraction for utilisation
};

/// Delays (queueing delay, JCT), utilisation and energy have their own tolerances; `per_metric`
/// patterns ('*' matches any text, dots included) take precedence, the first match winning.
struct ToleranceSet {
  Tolerance delay{0.05, 1.0};         ///< --rel 0.05 --abs 1s by default
  Tolerance utilisation{0.05, 0.001}; ///< 0.1 percentage point of absolute slack by default
  Tolerance energy{0.05, 1.0};        ///< kWh: --rel 0.05 and 1 kWh of absolute slack by default
  std::vector<std::pair<std::string, Tolerance>> per_metric;
};

/// Reads a tolerance file (YAML): `delay: {rel: 0.05, abs: 1s}`, `utilisation: {rel: 0.02, abs: 0.005}`,
/// `energy: {rel: 0.02, abs: 10}` (kWh), `metrics: {"clusters.*.by_type.Debug.*": {rel: 0.5, abs: 10min}}`.
/// Throws ConfigError (located).
ToleranceSet load_tolerance_file(const std::string& path);

/// The metrics a regression check compares, picked from a flattened summary.json: per cluster
/// gpu_utilisation and power.energy_kWh, and per cluster and job type queue_s and jct_s {mean, p50,
/// p90, p99} and energy_kWh.
std::vector<Metric> select_check_metrics(const std::vector<Metric>& summary);

/// For utilisation a decrease is the regression; for delays, JCT and energy an increase.
bool higher_is_better(const std::string& metric);

/// A committed baseline: the selected metrics of a run and the tolerance to check them with.
struct Baseline {
  std::string source;                ///< the run the baseline was taken from (its summary's config), for people
  std::optional<std::uint64_t> seed; ///< that run's seed (absent in baselines of earlier versions)
  ToleranceSet tolerance;
  std::vector<Metric> metrics;
};

/// Reads BASELINE.json; throws ConfigError (file:line:col, key, expected) when missing or garbled.
Baseline load_baseline(const std::string& path);
std::string baseline_json_text(const Baseline& baseline);

enum class Verdict { OK, IMPROVED, REGRESSION, MISSING, NEW };
const char* verdict_name(Verdict verdict);

struct CheckRow {
  std::string metric;
  std::optional<double> baseline;
  std::optional<double> current;
  double delta = 0.0;   ///< current - baseline
  double allowed = 0.0; ///< the tolerance band's half width
  Verdict verdict = Verdict::OK;
};

/// Compares every baseline metric (and reports metrics new in the run): beyond the allowed band a
/// move in the bad direction is a REGRESSION, in the good one IMPROVED; a baseline metric the run
/// lacks is MISSING (which fails, like a regression).
std::vector<CheckRow> compare_with_baseline(const Baseline& baseline, const std::vector<Metric>& current,
                                            const ToleranceSet& tolerance);

/// True when a row fails the check (REGRESSION or MISSING).
bool is_failure(const CheckRow& row);

/// The tolerance that applies to a metric.
Tolerance tolerance_for(const ToleranceSet& tolerance, const std::string& metric);

} // namespace acme::study
