#pragma once

#include <string>
#include <vector>

#include "sim/study/point.hpp"
#include "sim/study/study.hpp"

namespace acme::study {

constexpr const char* PLAN_FILE = "study.json";
constexpr const char* POINTS_DIR = "points";

/// A study folder's study.json: every point of the study (not only a shard's), so that `merge`
/// knows the whole study and can name points no input holds.
struct Plan {
  std::string name;
  std::string study_file;
  std::string base_config;
  std::vector<std::string> axes;   ///< varied keys, the results' set:<key> columns
  std::vector<Point> points;       ///< canonical order
  std::string shard;               ///< "K/N" for a shard's folder, "" otherwise
  std::vector<AxisLabels> values;  ///< every varied key's values in the study's order (plots order points by them)
  std::vector<AxisLabels> labels;  ///< the study's short names of axis values (written only when there are some)
  std::string question;            ///< the study's question ("" when it asks none)
  std::vector<std::string> answer; ///< the metrics that answer it (Study::answer)
  std::vector<config::Override> baseline; ///< the baseline setting (empty in study folders of earlier versions)
};

Plan make_plan(const Study& study, const std::vector<Point>& points, const std::string& shard);
std::string plan_json_text(const Plan& plan);
void write_plan(const std::string& study_dir, const Plan& plan);
/// Reads DIR/study.json; throws ConfigError (located) when missing or malformed.
Plan read_plan(const std::string& study_dir);
/// True when both plans hold the same points (ids, overrides, seeds) and axes.
bool same_study(const Plan& a, const Plan& b);

} // namespace acme::study
