#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/study/point.hpp"
#include "sim/study/point_record.hpp"

namespace acme::study {

constexpr const char* RESULTS_CSV = "results.csv";
constexpr const char* RESULTS_JSON = "results.json";
constexpr const char* AGGREGATE_CSV = "aggregate.csv";
constexpr double CONFIDENCE = 0.95; ///< of the intervals across seeds

/// What the results files are made of: the points (canonical order) and what became of each.
/// A point without a record is reported as "missing".
struct ResultsInput {
  std::string study_name;
  std::vector<std::string> axes;
  std::vector<Point> points;
  std::map<std::string, PointRecord> records;
  std::vector<AxisLabels> values; ///< every varied key's values in the study's order (the first: the baseline)
  std::vector<AxisLabels> labels; ///< the study's short names of those values (`labels:`), where it gives some
  /// The setting paired.csv compares the others to, per varied key; empty: every key at its first value.
  std::vector<config::Override> baseline;
};

/// A point's name for people: per varied key, the study's label of its value (else the value itself),
/// joined by " / " in the order of the axes.
std::string point_label(const ResultsInput& input, const Point& point);

/// Metric names over every successful point, in first-seen order along the canonical point order
/// (names of the point's own columns, such as seed, left out).
std::vector<std::string> metric_names(const ResultsInput& input);

/// One row per point: point_id, group_id, seed, status, label, set:<axis>..., <metrics>..., error.
std::string results_csv(const ResultsInput& input);
/// The same rows plus the aggregate across seeds (mean and Student t interval per metric and group).
std::string results_json(const ResultsInput& input);
/// One row per group: group_id, set:<axis>..., replicas, <metric>.mean, <metric>.ci95 (half width).
std::string aggregate_csv(const ResultsInput& input);

/// Writes results.csv, results.json, aggregate.csv and (when the study has a baseline setting and
/// another) paired.csv (sim/study/paired.hpp) into `dir` atomically. The bytes depend only on
/// the points and their records: the same for any -j, shard layout or merge order.
void write_results(const std::string& dir, const ResultsInput& input);

/// Counts by status: ok, failed, missing.
struct StatusCounts {
  std::size_t ok = 0;
  std::size_t failed = 0;
  std::size_t missing = 0;
};
StatusCounts count_statuses(const ResultsInput& input);

} // namespace acme::study
