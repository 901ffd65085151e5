#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/node.hpp"
#include "sim/model/error.hpp"

namespace acme::study {

/// One varied config key and the values it takes (each value is YAML text, as `--set` takes it).
struct Axis {
  std::string key_path;
  std::vector<std::string> values;
  Location where;                    ///< of the key in the study file, for errors
  std::vector<Location> value_where; ///< of each value: errors in a point's config name its line
};

/// Axes varied together: the i-th point takes the i-th value of every axis (equal lengths).
struct ZipGroup {
  std::vector<Axis> axes;
};

/// Short names of one axis's values, for plots and reports (`labels:` in the study file).
struct AxisLabels {
  std::string key_path;
  std::vector<std::string> names; ///< one per value of the axis, in its order
  friend bool operator==(const AxisLabels&, const AxisLabels&) = default;
};

/// A what-if study: a base config, overrides every point gets, the axes to vary and the seeds.
///
///   name: placement_vs_size            # default: the file name without extension
///   config: ../test/tiny.yaml          # relative to the study file
///   set: {output.timeseries_interval: 10min}
///   grid: {policies.placement.name: [pack, first_fit], clusters[0].nodes: [2, 4]}
///   zip: {clusters[0].nodes: [2, 4], clusters[0].cpu_job_cores_per_node: [4, 8]}  # or a list of such maps
///   seeds: 3                           # replicas 1, 2, 3; or a list [7, 11]
///   labels: {clusters[0].nodes: [small, large]}  # optional short names of an axis's values
///   question: Does backfilling cut evaluation waits?  # optional: what the study asks
///   answer: [by_type.*.queue_s.mean]    # optional: the metrics that answer it (the report opens with them)
///   baseline: {policies.placement.name: pack}  # optional: the setting the others are compared to
struct Study {
  std::string file; ///< the study file as given
  std::string name;
  std::string base_config; ///< absolute path
  std::vector<config::Override> fixed;
  std::vector<Axis> grid;
  std::vector<ZipGroup> zips;
  std::vector<std::uint64_t> seeds;
  std::vector<AxisLabels> labels;
  std::string question;                   ///< what the study asks; "" when it does not say
  std::vector<std::string> answer;        ///< summary paths under clusters.<name>. ('*': one segment, any name)
  std::vector<config::Override> baseline; ///< per varied key (axis_keys order): the baseline setting's value
};

/// Reads and validates a study file. Throws ConfigError (file:line:col, key, what is expected).
Study load_study(const std::string& path);
/// Same from text (tests); `name` stands for the file in messages, `base_dir` resolves `config:`.
Study parse_study_text(const std::string& text, const std::string& name, const std::string& base_dir);

/// A YAML value as `--set` text: scalars as written, lists and maps in flow style.
std::string value_text(const config::Node& value);

/// Every varied key: grid axes in file order, then zip axes.
std::vector<std::string> axis_keys(const Study& study);

} // namespace acme::study
