#include "sim/study/paired.hpp"

#include <map>
#include <unordered_map>

#include "sim/study/t_interval.hpp"
#include "sim/study/text_format.hpp"

namespace acme::study {
namespace {

/// Per seed, the metrics of a setting's finished points.
using SeedMetrics = std::map<std::uint64_t, std::unordered_map<std::string, double>>;

bool is_baseline(const Point& point, const ResultsInput& input) {
  std::vector<config::Override> wanted = input.baseline;
  if (wanted.empty()) {
    for (const auto& axis : input.values) {
      if (!axis.names.empty()) {
        wanted.emplace_back(axis.key_path, axis.names.front());
      }
    }
  }
  for (const auto& want : wanted) {
    bool found = false;
    for (const auto& o : point.overrides) {
      found = found || (o.key_path == want.key_path && o.value == want.value);
    }
    if (!found) {
      return false;
    }
  }
  return !wanted.empty();
}

/// Settings (group ids) in canonical order, each with its finished points' metrics by seed.
std::vector<std::pair<const Point*, SeedMetrics>> settings_of(const ResultsInput& input) {
  std::vector<std::pair<const Point*, SeedMetrics>> settings;
  for (const auto& point : input.points) {
    if (settings.empty() || settings.back().first->group_id != point.group_id) {
      settings.push_back({&point, {}});
    }
    auto it = input.records.find(point.id);
    if (it == input.records.end() || it->second.status != STATUS_OK) {
      continue;
    }
    auto& metrics = settings.back().second[point.seed];
    for (const auto& m : it->second.metrics) {
      metrics.emplace(m.name, m.value);
    }
  }
  return settings;
}

std::string setting_columns(const Point& point, const std::vector<std::string>& axes) {
  std::string text = point.group_id;
  for (const auto& axis : axes) {
    std::string value;
    for (const auto& o : point.overrides) {
      value = o.key_path == axis ? o.value : value;
    }
    text += "," + csv_field(value);
  }
  return text;
}

/// One row: the metric over the seeds both settings finished ("" when no seed is shared).
std::string paired_row(const std::string& name, const SeedMetrics& base, const SeedMetrics& other) {
  std::vector<double> base_values;
  std::vector<double> values;
  std::vector<double> diffs;
  for (const auto& [seed, metrics] : other) {
    auto b = base.find(seed);
    auto here = metrics.find(name);
    if (b == base.end() || here == metrics.end()) {
      continue;
    }
    auto there = b->second.find(name);
    if (there != b->second.end()) {
      base_values.push_back(there->second);
      values.push_back(here->second);
      diffs.push_back(here->second - there->second);
    }
  }
  if (diffs.empty()) {
    return "";
  }
  Interval d = t_interval(diffs, CONFIDENCE);
  bool differs = d.has_interval && (d.mean - d.half_width > 0.0 || d.mean + d.half_width < 0.0);
  return csv_field(name) + "," + std::to_string(diffs.size()) + "," +
         format_number(t_interval(base_values, CONFIDENCE).mean) + "," +
         format_number(t_interval(values, CONFIDENCE).mean) + "," + format_number(d.mean) + "," +
         (d.has_interval ? format_number(d.mean - d.half_width) + "," + format_number(d.mean + d.half_width) : ",") +
         "," + (d.has_interval ? (differs ? "yes" : "no") : "") + "\n";
}

} // namespace

std::string paired_csv(const ResultsInput& input) {
  auto settings = settings_of(input);
  const std::pair<const Point*, SeedMetrics>* base = nullptr;
  for (const auto& s : settings) {
    base = base == nullptr && is_baseline(*s.first, input) ? &s : base;
  }
  if (base == nullptr || settings.size() < 2) {
    return "";
  }
  std::string text = "group_id";
  for (const auto& axis : input.axes) {
    text += "," + csv_field("set:" + axis);
  }
  text += ",baseline_group,metric,pairs,baseline_mean,mean,diff_mean,diff_ci95_low,diff_ci95_high,differs\n";
  auto names = metric_names(input);
  for (const auto& s : settings) {
    if (&s == base) {
      continue;
    }
    std::string prefix = setting_columns(*s.first, input.axes) + "," + base->first->group_id + ",";
    for (const auto& name : names) {
      std::string row = paired_row(name, base->second, s.second);
      text += row.empty() ? "" : prefix + row;
    }
  }
  return text;
}

} // namespace acme::study
