#include "sim/cli/results_table.hpp"

#include <fmt/format.h>

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

} // namespace

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
