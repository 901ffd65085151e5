#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/study/metrics_flatten.hpp"
#include "sim/study/point.hpp"

namespace acme::study {

constexpr const char* POINT_FILE = "point.json";
constexpr const char* SUMMARY_FILE = "summary.json";
constexpr const char* STATUS_OK = "ok";
constexpr const char* STATUS_FAILED = "failed";
constexpr const char* STATUS_MISSING = "missing";

/// What became of one point: points/<id>/point.json plus, when it succeeded, its summary metrics.
struct PointRecord {
  std::string id;
  std::string status = STATUS_MISSING;
  int exit_code = 0;
  std::string error;   ///< failed points: what went wrong (the worker's stderr tail)
  double wall_s = 0.0; ///< the worker's wall-clock time (point.json only: it differs run to run)
  /// content hash of each file its run read, by config key (summary.json "provenance"; read back only)
  std::map<std::string, std::string> inputs;
  std::vector<Metric> metrics;
};

/// point.json's text: the point's overrides, seed, status, error, wall time and command.
std::string point_json_text(const Point& point, const PointRecord& record, const std::vector<std::string>& command);

/// Reads points_dir/<id>/ back. Nothing when the folder is absent, its point.json is unreadable or
/// describes another point, or it claims success without a readable summary.json: such a point runs again.
/// `damage` (when given) then says what is wrong with a folder that is there ("" when it is absent).
std::optional<PointRecord> read_point_record(const std::string& points_dir, const Point& point,
                                             std::string* damage = nullptr);

/// The records of `points` found under points_dir (absent ones are left out); `damaged` (when given)
/// receives, per point whose folder is there but unusable, what is wrong with it.
std::map<std::string, PointRecord> read_point_records(const std::string& points_dir, const std::vector<Point>& points,
                                                      std::map<std::string, std::string>* damaged = nullptr);

} // namespace acme::study
