#include "sim/study/results.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>

#include "sim/metrics/atomic_file.hpp"
#include "sim/study/paired.hpp"
#include "sim/study/t_interval.hpp"
#include "sim/study/text_format.hpp"

namespace acme::study {
namespace {

namespace fs = std::filesystem;

const PointRecord* find_record(const ResultsInput& input, const Point& point) {
  auto it = input.records.find(point.id);
  return it == input.records.end() ? nullptr : &it->second;
}

std::string status_of(const PointRecord* record) {
  return record == nullptr ? STATUS_MISSING : record->status;
}

std::string axis_value(const Point& point, const std::string& key) {
  for (const auto& o : point.overrides) {
    if (o.key_path == key) {
      return o.value;
    }
  }
  return "";
}

std::unordered_map<std::string, double> metric_map(const PointRecord& record) {
  std::unordered_map<std::string, double> values;
  for (const auto& m : record.metrics) {
    values.emplace(m.name, m.value);
  }
  return values;
}

/// Groups in canonical order with their points (replicas across seeds).
std::vector<std::vector<const Point*>> groups_of(const ResultsInput& input) {
  std::vector<std::vector<const Point*>> groups;
  for (const auto& point : input.points) {
    if (groups.empty() || groups.back().front()->group_id != point.group_id) {
      groups.emplace_back();
    }
    groups.back().push_back(&point);
  }
  return groups;
}

std::string json_set(const Point& point, const std::vector<std::string>& axes) {
  std::string text = "{";
  for (std::size_t i = 0; i < axes.size(); ++i) {
    text += (i == 0 ? "" : ", ") + json_quote(axes[i]) + ": " + json_quote(axis_value(point, axes[i]));
  }
  return text + "}";
}

std::string json_point(const ResultsInput& input, const Point& point, const std::vector<std::string>& names) {
  const PointRecord* record = find_record(input, point);
  std::string text = "    {\"id\": " + json_quote(point.id) + ", \"group\": " + json_quote(point.group_id) +
                     ", \"seed\": " + std::to_string(point.seed) + ", \"status\": " + json_quote(status_of(record)) +
                     ",\n     \"set\": " + json_set(point, input.axes);
  if (record != nullptr && record->status == STATUS_FAILED) {
    text += ",\n     \"error\": " + json_quote(record->error);
  }
  text += ",\n     \"metrics\": {";
  if (record != nullptr && record->status == STATUS_OK) {
    auto values = metric_map(*record);
    bool first = true;
    for (const auto& name : names) {
      auto it = values.find(name);
      if (it != values.end()) {
        text += std::string(first ? "\n" : ",\n") + "       " + json_quote(name) + ": " + format_number(it->second);
        first = false;
      }
    }
  }
  return text + "}}";
}

/// Per metric, the values of a group's successful replicas.
std::vector<std::vector<double>> group_samples(const ResultsInput& input, const std::vector<const Point*>& group,
                                               const std::vector<std::string>& names) {
  std::vector<std::vector<double>> samples(names.size());
  for (const Point* point : group) {
    const PointRecord* record = find_record(input, *point);
    if (record == nullptr || record->status != STATUS_OK) {
      continue;
    }
    auto values = metric_map(*record);
    for (std::size_t m = 0; m < names.size(); ++m) {
      if (auto it = values.find(names[m]); it != values.end()) {
        samples[m].push_back(it->second);
      }
    }
  }
  return samples;
}

std::size_t ok_replicas(const ResultsInput& input, const std::vector<const Point*>& group) {
  std::size_t n = 0;
  for (const Point* point : group) {
    const PointRecord* record = find_record(input, *point);
    n += record != nullptr && record->status == STATUS_OK ? 1 : 0;
  }
  return n;
}

std::string json_interval(const Interval& interval) {
  std::string text = "{\"n\": " + std::to_string(interval.n) + ", \"mean\": " + format_number(interval.mean);
  if (!interval.has_interval) {
    return text + ", \"ci95_low\": null, \"ci95_high\": null}";
  }
  return text + ", \"ci95_low\": " + format_number(interval.mean - interval.half_width) +
         ", \"ci95_high\": " + format_number(interval.mean + interval.half_width) + "}";
}

std::string json_group(const ResultsInput& input, const std::vector<const Point*>& group,
                       const std::vector<std::string>& names) {
  std::string text = "    {\"group\": " + json_quote(group.front()->group_id) +
                     ", \"set\": " + json_set(*group.front(), input.axes) + ", \"seeds\": [";
  for (std::size_t i = 0; i < group.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(group[i]->seed);
  }
  text += "], \"replicas_ok\": " + std::to_string(ok_replicas(input, group)) + ",\n     \"metrics\": {";
  auto samples = group_samples(input, group, names);
  bool first = true;
  for (std::size_t m = 0; m < names.size(); ++m) {
    if (samples[m].empty()) {
      continue;
    }
    text += std::string(first ? "\n" : ",\n") + "       " + json_quote(names[m]) + ": " +
            json_interval(t_interval(samples[m], CONFIDENCE));
    first = false;
  }
  return text + "}}";
}

} // namespace

std::string point_label(const ResultsInput& input, const Point& point) {
  std::string label;
  for (const auto& axis : input.axes) {
    std::string value = axis_value(point, axis);
    std::string shown = value;
    for (const auto& names : input.labels) {
      for (const auto& values : input.values) {
        if (names.key_path != axis || values.key_path != axis) {
          continue;
        }
        auto at = std::find(values.names.begin(), values.names.end(), value);
        auto index = static_cast<std::size_t>(at - values.names.begin());
        shown = at != values.names.end() && index < names.names.size() ? names.names[index] : shown;
      }
    }
    label += (label.empty() ? "" : " / ") + shown;
  }
  return label;
}

std::vector<std::string> metric_names(const ResultsInput& input) {
  std::vector<std::string> names;
  // The point's own columns: summary.json's "seed" repeats the point's seed.
  std::unordered_set<std::string> seen{"point_id", "group_id", "seed", "status", "label", "error"};
  for (const auto& point : input.points) {
    const PointRecord* record = find_record(input, point);
    if (record == nullptr || record->status != STATUS_OK) {
      continue;
    }
    for (const auto& m : record->metrics) {
      if (seen.insert(m.name).second) {
        names.push_back(m.name);
      }
    }
  }
  return names;
}

std::string results_csv(const ResultsInput& input) {
  auto names = metric_names(input);
  std::string text = "point_id,group_id,seed,status,label";
  for (const auto& axis : input.axes) {
    text += "," + csv_field("set:" + axis);
  }
  for (const auto& name : names) {
    text += "," + csv_field(name);
  }
  text += ",error\n";
  for (const auto& point : input.points) {
    const PointRecord* record = find_record(input, point);
    text += point.id + "," + point.group_id + "," + std::to_string(point.seed) + "," + status_of(record) + "," +
            csv_field(point_label(input, point));
    for (const auto& axis : input.axes) {
      text += "," + csv_field(axis_value(point, axis));
    }
    auto values = record != nullptr ? metric_map(*record) : std::unordered_map<std::string, double>{};
    for (const auto& name : names) {
      auto it = values.find(name);
      text += "," + (it == values.end() ? std::string() : format_number(it->second));
    }
    bool failed = record != nullptr && record->status == STATUS_FAILED;
    text += "," + (failed ? csv_field(record->error) : std::string()) + "\n";
  }
  return text;
}

std::string results_json(const ResultsInput& input) {
  auto names = metric_names(input);
  std::string text = "{\n  \"study\": " + json_quote(input.study_name) + ",\n  \"axes\": [";
  for (std::size_t i = 0; i < input.axes.size(); ++i) {
    text += (i == 0 ? "" : ", ") + json_quote(input.axes[i]);
  }
  text += "],\n  \"confidence\": " + format_number(CONFIDENCE) + ",\n  \"points\": [\n";
  for (std::size_t i = 0; i < input.points.size(); ++i) {
    text += json_point(input, input.points[i], names) + (i + 1 < input.points.size() ? ",\n" : "\n");
  }
  text += "  ],\n  \"aggregate\": [\n";
  auto groups = groups_of(input);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    text += json_group(input, groups[g], names) + (g + 1 < groups.size() ? ",\n" : "\n");
  }
  return text + "  ]\n}\n";
}

std::string aggregate_csv(const ResultsInput& input) {
  auto names = metric_names(input);
  std::string text = "group_id";
  for (const auto& axis : input.axes) {
    text += "," + csv_field("set:" + axis);
  }
  text += ",replicas_ok";
  for (const auto& name : names) {
    text += "," + csv_field(name + ".mean") + "," + csv_field(name + ".ci95");
  }
  text += "\n";
  for (const auto& group : groups_of(input)) {
    text += group.front()->group_id;
    for (const auto& axis : input.axes) {
      text += "," + csv_field(axis_value(*group.front(), axis));
    }
    text += "," + std::to_string(ok_replicas(input, group));
    auto samples = group_samples(input, group, names);
    for (const auto& values : samples) {
      Interval interval = t_interval(values, CONFIDENCE);
      text += "," + (values.empty() ? std::string() : format_number(interval.mean)) + "," +
              (interval.has_interval ? format_number(interval.half_width) : std::string());
    }
    text += "\n";
  }
  return text;
}

void write_results(const std::string& dir, const ResultsInput& input) {
  metrics::write_file_atomically((fs::path(dir) / RESULTS_CSV).string(), results_csv(input));
  metrics::write_file_atomically((fs::path(dir) / RESULTS_JSON).string(), results_json(input));
  metrics::write_file_atomically((fs::path(dir) / AGGREGATE_CSV).string(), aggregate_csv(input));
  std::string paired = paired_csv(input);
  std::error_code ec;
  if (!paired.empty()) {
    metrics::write_file_atomically((fs::path(dir) / PAIRED_CSV).string(), paired);
  } else {
    fs::remove(fs::path(dir) / PAIRED_CSV, ec); // a study that no longer has two settings
  }
}

StatusCounts count_statuses(const ResultsInput& input) {
  StatusCounts counts;
  for (const auto& point : input.points) {
    std::string status = status_of(find_record(input, point));
    counts.ok += status == STATUS_OK ? 1 : 0;
    counts.failed += status == STATUS_FAILED ? 1 : 0;
    counts.missing += status == STATUS_MISSING ? 1 : 0;
  }
  return counts;
}

} // namespace acme::study
