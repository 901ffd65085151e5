#include "sim/study/metrics_flatten.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>

#include "sim/config/node.hpp"
#include "sim/model/error.hpp"
#include "sim/study/text_format.hpp"

namespace acme::study {
namespace {

bool parse_double(const std::string& text, double& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

bool is_wall_clock(const std::string& key) {
  return key.rfind("wall", 0) == 0;
}

void flatten(const YAML::Node& node, const std::string& path, std::vector<Metric>& out) {
  if (node.IsMap()) {
    for (const auto& kv : node) {
      std::string key = kv.first.Scalar();
      if (is_wall_clock(key)) {
        continue;
      }
      flatten(kv.second, path.empty() ? key : path + "." + key, out);
    }
    return;
  }
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      flatten(node[i], path + "[" + std::to_string(i) + "]", out);
    }
    return;
  }
  if (!node.IsScalar() || node.Tag() == "!") {
    return; // null, or a quoted JSON string (yaml-cpp tags those "!")
  }
  const std::string& text = node.Scalar();
  double value = 0.0;
  if (text == "true" || text == "false") {
    out.push_back({path, text == "true" ? 1.0 : 0.0});
  } else if (parse_double(text, value)) {
    out.push_back({path, value});
  }
}

} // namespace

std::vector<Metric> flatten_json_metrics(const std::string& json_text, const std::string& file_name) {
  return flatten_metrics(config::load_json_text(json_text, file_name));
}

std::vector<Metric> flatten_metrics(const config::Node& root) {
  if (!root.is_map()) {
    root.fail("expected a JSON object (a run's summary.json)");
  }
  std::vector<Metric> metrics;
  flatten(root.yaml(), "", metrics);
  return metrics;
}

std::vector<Metric> load_summary_metrics(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) {
    throw ConfigError(Location{path, 0, 0}, "", "cannot read; expected a run's summary.json");
  }
  return flatten_json_metrics(text, path);
}

} // namespace acme::study
