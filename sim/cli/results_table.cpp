#include "sim/cli/results_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/config/node.hpp"
#include "sim/model/error.hpp"

namespace acme::cli {
namespace {

constexpr double PERCENT = 100.0;
constexpr double KWH_PER_MWH = 1000.0;

/// The number at a dotted path below `node`, or nothing.
std::string figure(const config::Node& node, std::initializer_list<const char*> path, const char* format,
                   double scale = 1.0) {
  config::Node at = node;
  for (const char* key : path) {
    if (!at.is_map()) {
      return "-";
    }
    at = at[key];
  }
  if (!at.is_scalar()) {
    return "-";
  }
  return fmt::format(fmt::runtime(format), at.as_double() * scale);
}

/// The mean of one metric over the finished replicas of a setting ("-" when none has it).
std::string mean_of(const std::vector<const study::PointRecord*>& replicas, const std::string& name, const char* format,
                    double scale = 1.0) {
  double sum = 0.0;
  std::size_t n = 0;
  for (const study::PointRecord* r : replicas) {
    for (const study::Metric& m : r->metrics) {
      if (m.name == name) {
        sum += m.value;
        ++n;
        break;
      }
    }
  }
  return n == 0 ? std::string("-") : fmt::format(fmt::runtime(format), sum / static_cast<double>(n) * scale);
}

/// The clusters the finished points report, in the order their metrics first appear.
std::vector<std::string> clusters_of(const std::vector<const study::PointRecord*>& replicas) {
  std::vector<std::string> out;
  const std::string prefix = "clusters.";
  const std::string suffix = ".gpu_utilisation";
  for (const study::PointRecord* r : replicas) {
    for (const study::Metric& m : r->metrics) {
      if (m.name.rfind(prefix, 0) == 0 && m.name.size() > prefix.size() + suffix.size() &&
          m.name.compare(m.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        std::string name = m.name.substr(prefix.size(), m.name.size() - prefix.size() - suffix.size());
        if (std::find(out.begin(), out.end(), name) == out.end()) {
          out.push_back(name);
        }
      }
    }
  }
  return out;
}

} // namespace

std::string sweep_results_table(const study::ResultsInput& input, std::size_t max_rows) {
  std::vector<std::pair<const study::Point*, std::vector<const study::PointRecord*>>> settings; // in point order
  std::unordered_map<std::string, std::size_t> setting_of;                                      // group id -> index
  for (const study::Point& p : input.points) {
    auto [at, added] = setting_of.try_emplace(p.group_id, settings.size());
    if (added) {
      settings.emplace_back(&p, std::vector<const study::PointRecord*>{});
    }
    auto record = input.records.find(p.id);
    if (record != input.records.end() && record->second.status == study::STATUS_OK) {
      settings[at->second].second.push_back(&record->second);
    }
  }
  std::vector<const study::PointRecord*> all;
  for (const auto& [point, replicas] : settings) {
    all.insert(all.end(), replicas.begin(), replicas.end());
  }
  if (all.empty()) {
    return "";
  }
  const std::vector<std::string> clusters = clusters_of(all); // once: it scans every metric of every point
  std::string text = fmt::format("{:<32} {:<10} {:>5} {:>12} {:>11} {:>9} {:>13}\n", "setting", "cluster", "seeds",
                                 "mean wait s", "GPU util %", "failures", "pretrain ETTR");
  std::size_t rows = 0;
  std::size_t total = 0;
  for (const auto& [point, replicas] : settings) {
    for (const std::string& c : clusters) {
      ++total;
      if (rows == max_rows) {
        continue;
      }
      ++rows;
      std::string at = "clusters." + c + ".";
      text += fmt::format("{:<32} {:<10} {:>5} {:>12} {:>11} {:>9} {:>13}\n", study::point_label(input, *point), c,
                          replicas.size(), mean_of(replicas, at + "by_type.all_gpu.queue_s.mean", "{:.1f}"),
                          mean_of(replicas, at + "gpu_utilisation", "{:.1f}", PERCENT),
                          mean_of(replicas, at + "fault_tolerance.failures", "{:.1f}"),
                          mean_of(replicas, at + "fault_tolerance.pretrain_ettr", "{:.4f}"));
    }
  }
  if (total > rows) {
    text += fmt::format("... {} more rows: results.csv and aggregate.csv hold every setting\n", total - rows);
  }
  return text;
}

std::string results_table(const std::string& summary_path) {
  try {
    config::Node summary =
        config::load_json_text(config::read_input_file(summary_path, "a run's summary.json"), summary_path);
    config::Node clusters = summary["clusters"];
    std::string text =
        fmt::format("{:<12} {:>9} {:>12} {:>12} {:>11} {:>9} {:>13} {:>10}\n", "cluster", "GPU jobs", "mean wait s",
                    "median wait", "GPU util %", "failures", "pretrain ETTR", "energy MWh");
    for (const std::string& name : clusters.keys()) {
      config::Node c = clusters[name];
      config::Node all = c["by_type"]["all_gpu"];
      text += fmt::format("{:<12} {:>9} {:>12} {:>12} {:>11} {:>9} {:>13} {:>10}\n", name,
                          figure(all, {"jobs"}, "{:.0f}"), figure(all, {"queue_s", "mean"}, "{:.1f}"),
                          figure(all, {"queue_s", "p50"}, "{:.1f}"), figure(c, {"gpu_utilisation"}, "{:.1f}", PERCENT),
                          figure(c, {"fault_tolerance", "failures"}, "{:.0f}"),
                          figure(c, {"fault_tolerance", "pretrain_ettr"}, "{:.4f}"),
                          figure(c, {"power", "energy_kWh"}, "{:.1f}", 1.0 / KWH_PER_MWH));
    }
    return text;
  } catch (const ConfigError&) {
    return "";
  }
}

} // namespace acme::cli
