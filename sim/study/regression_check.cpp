#include "sim/study/regression_check.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

#include "sim/config/node.hpp"
#include "sim/model/error.hpp"
#include "sim/study/text_format.hpp"
#include <fnmatch.h>

namespace acme::study {
namespace {

constexpr const char* BASELINE_FORMAT = "acme-sim-baseline/1";
const std::vector<std::string> TOLERANCE_KEYS = {"delay", "utilisation", "energy", "metrics"};

bool ends_with(const std::string& text, std::string_view tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}
const std::vector<std::string> BAND_KEYS = {"rel", "abs"};

Tolerance parse_band(const config::Node& node, Tolerance fallback, bool abs_is_duration) {
  if (!node.is_defined()) {
    return fallback;
  }
  node.expect_map();
  node.expect_keys(BAND_KEYS);
  Tolerance band = fallback;
  if (node["rel"].is_defined()) {
    band.rel = node["rel"].as_nonnegative();
  }
  if (node["abs"].is_defined()) {
    band.abs = abs_is_duration ? node["abs"].as_duration_s() : node["abs"].as_nonnegative();
  }
  return band;
}

ToleranceSet parse_tolerance(const config::Node& node) {
  ToleranceSet set;
  if (!node.is_defined()) {
    return set;
  }
  node.expect_map();
  node.expect_keys(TOLERANCE_KEYS);
  set.delay = parse_band(node["delay"], set.delay, true);
  set.utilisation = parse_band(node["utilisation"], set.utilisation, false);
  set.energy = parse_band(node["energy"], set.energy, false);
  config::Node patterns = node["metrics"];
  if (patterns.is_defined()) {
    patterns.expect_map();
    for (const auto& [pattern, band] : patterns.items()) {
      // A plain number passes through as_duration_s unchanged, so utilisation patterns work too.
      set.per_metric.emplace_back(pattern, parse_band(band, Tolerance{}, true));
    }
  }
  return set;
}

std::string band_json(const Tolerance& band) {
  return "{\"rel\": " + format_number(band.rel) + ", \"abs\": " + format_number(band.abs) + "}";
}

} // namespace

ToleranceSet load_tolerance_file(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) {
    throw ConfigError(Location{path, 0, 0}, "",
                      "cannot read; expected a tolerance file (YAML: delay, utilisation, energy, metrics)");
  }
  config::Node root = config::load_yaml_text(text, path);
  if (!root.is_map()) {
    root.fail("expected a map with delay, utilisation, energy and/or metrics");
  }
  return parse_tolerance(root);
}

std::vector<Metric> select_check_metrics(const std::vector<Metric>& summary) {
  static const std::regex SELECTED(
      R"(clusters\.[^.]+\.(gpu_utilisation|power\.energy_kWh|fault_tolerance\.(pretrain_ettr|gpu_hours_lost)|)"
      R"(by_type\.[^.]+\.((queue_s|jct_s)\.(mean|p50|p90|p99)|energy_kWh)))");
  std::vector<Metric> selected;
  for (const auto& m : summary) {
    if (std::regex_match(m.name, SELECTED)) {
      selected.push_back(m);
    }
  }
  return selected;
}

bool higher_is_better(const std::string& metric) {
  return ends_with(metric, "gpu_utilisation") || ends_with(metric, "pretrain_ettr");
}

Tolerance tolerance_for(const ToleranceSet& tolerance, const std::string& metric) {
  for (const auto& [pattern, band] : tolerance.per_metric) {
    if (::fnmatch(pattern.c_str(), metric.c_str(), 0) == 0) {
      return band;
    }
  }
  if (ends_with(metric, "energy_kWh")) {
    return tolerance.energy;
  }
  return higher_is_better(metric) ? tolerance.utilisation : tolerance.delay;
}

Baseline load_baseline(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) {
    throw ConfigError(Location{path, 0, 0}, "",
                      "cannot read the baseline; expected a JSON file written by acme-sim check --update");
  }
  config::Node root = config::load_json_text(text, path);
  if (!root.is_map()) {
    root.fail("expected a baseline: a JSON object written by acme-sim check --update");
  }
  root.expect_keys({"format", "source", "seed", "tolerance", "metrics"});
  if (!root["format"].is_defined() || root["format"].as_string() != BASELINE_FORMAT) {
    root["format"].fail(std::string("expected \"") + BASELINE_FORMAT + "\"");
  }
  Baseline baseline;
  baseline.source = root["source"].is_defined() ? root["source"].as_string() : "";
  if (root["seed"].is_defined()) {
    baseline.seed = root["seed"].as_u64();
  }
  baseline.tolerance = parse_tolerance(root["tolerance"]);
  config::Node metrics = root["metrics"];
  if (!metrics.is_map() || metrics.size() == 0) {
    metrics.fail("expected a non-empty object of metric: number");
  }
  for (const auto& [name, value] : metrics.items()) {           // one pass: looking each name up again is quadratic
    if (value.yaml().IsScalar() && value.yaml().Tag() == "!") { // a JSON string such as "12" is no number
      value.fail("expected a number, got the string \"" + excerpt(value.yaml().Scalar()) + "\"");
    }
    baseline.metrics.push_back({name, value.as_double()});
  }
  return baseline;
}

std::string baseline_json_text(const Baseline& baseline) {
  std::string text = "{\n  \"format\": " + json_quote(BASELINE_FORMAT) +
                     ",\n  \"source\": " + json_quote(baseline.source) +
                     (baseline.seed ? ",\n  \"seed\": " + std::to_string(*baseline.seed) : std::string()) +
                     ",\n  \"tolerance\": {\"delay\": " + band_json(baseline.tolerance.delay) +
                     ", \"utilisation\": " + band_json(baseline.tolerance.utilisation) +
                     ", \"energy\": " + band_json(baseline.tolerance.energy) + ", \"metrics\": {";
  for (std::size_t i = 0; i < baseline.tolerance.per_metric.size(); ++i) {
    const auto& [pattern, band] = baseline.tolerance.per_metric[i];
    text += (i == 0 ? "" : ", ") + json_quote(pattern) + ": " + band_json(band);
  }
  text += "}},\n  \"metrics\": {\n";
  for (std::size_t i = 0; i < baseline.metrics.size(); ++i) {
    text += "    " + json_quote(baseline.metrics[i].name) + ": " + format_number(baseline.metrics[i].value) +
            (i + 1 < baseline.metrics.size() ? ",\n" : "\n");
  }
  return text + "  }\n}\n";
}

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
  case Verdict::OK:
    return "ok";
  case Verdict::IMPROVED:
    return "improved";
  case Verdict::REGRESSION:
    return "REGRESSION";
  case Verdict::MISSING:
    return "MISSING";
  case Verdict::NEW:
    return "new";
  }
  return "?";
}

std::vector<CheckRow> compare_with_baseline(const Baseline& baseline, const std::vector<Metric>& current,
                                            const ToleranceSet& tolerance) {
  std::map<std::string, double> now;
  for (const auto& m : current) {
    now.emplace(m.name, m.value);
  }
  std::vector<CheckRow> rows;
  for (const auto& m : baseline.metrics) {
    CheckRow row{m.name, m.value, std::nullopt, 0.0, 0.0, Verdict::MISSING};
    Tolerance band = tolerance_for(tolerance, m.name);
    row.allowed = std::max(band.abs, band.rel * std::fabs(m.value));
    if (auto it = now.find(m.name); it != now.end()) {
      row.current = it->second;
      row.delta = it->second - m.value;
      double worse = higher_is_better(m.name) ? -row.delta : row.delta;
      row.verdict =
          worse > row.allowed ? Verdict::REGRESSION : (-worse > row.allowed ? Verdict::IMPROVED : Verdict::OK);
      now.erase(it);
    }
    rows.push_back(row);
  }
  for (const auto& m : current) {
    if (now.count(m.name) != 0) {
      rows.push_back(CheckRow{m.name, std::nullopt, m.value, 0.0, 0.0, Verdict::NEW});
    }
  }
  return rows;
}

bool is_failure(const CheckRow& row) {
  return row.verdict == Verdict::REGRESSION || row.verdict == Verdict::MISSING;
}

} // namespace acme::study
