#include "sim/study/plan.hpp"

#include <filesystem>

#include "sim/config/node.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "sim/study/text_format.hpp"

namespace acme::study {
namespace {

namespace fs = std::filesystem;

constexpr const char* PLAN_FORMAT = "acme-sim-study/1";

std::string point_json(const Point& point) {
  std::string text = "    {\"id\": " + json_quote(point.id) + ", \"group\": " + json_quote(point.group_id) +
                     ", \"seed\": " + std::to_string(point.seed) + ", \"overrides\": [";
  for (std::size_t i = 0; i < point.overrides.size(); ++i) {
    text += (i == 0 ? "[" : ", [") + json_quote(point.overrides[i].key_path) + ", " +
            json_quote(point.overrides[i].value) + "]";
  }
  return text + "]}";
}

Point read_point(const config::Node& json) {
  json.expect_keys({"id", "group", "seed", "overrides"});
  Point point;
  point.id = json["id"].as_string();
  point.group_id = json["group"].as_string();
  std::int64_t seed = json["seed"].as_int();
  if (seed < 0) {
    json["seed"].fail("expected a non-negative integer");
  }
  point.seed = static_cast<std::uint64_t>(seed);
  config::Node overrides = json["overrides"];
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    config::Node pair = overrides.at(i);
    if (!pair.is_sequence() || pair.size() != 2) {
      pair.fail("expected a [key, value] pair");
    }
    point.overrides.push_back({pair.at(0).as_string(), pair.at(1).as_string()});
  }
  if (point.group_id != overrides_hash(point.overrides) ||
      point.id != point.group_id + "-s" + std::to_string(point.seed)) {
    json["id"].fail("does not match the point's overrides and seed; expected a study.json written by acme-sim");
  }
  return point;
}

/// `,\n  "FIELD": {"KEY": ["text", ...], ...}`; nothing for an empty list.
std::string lists_json(const char* field, const std::vector<AxisLabels>& labels) {
  if (labels.empty()) {
    return "";
  }
  std::string text = ",\n  " + json_quote(field) + ": {";
  for (std::size_t i = 0; i < labels.size(); ++i) {
    text += (i == 0 ? "" : ", ") + json_quote(labels[i].key_path) + ": [";
    for (std::size_t j = 0; j < labels[i].names.size(); ++j) {
      text += (j == 0 ? "" : ", ") + json_quote(labels[i].names[j]);
    }
    text += "]";
  }
  return text + "}";
}

std::vector<AxisLabels> read_lists(const config::Node& json) {
  std::vector<AxisLabels> labels;
  if (!json.is_defined()) {
    return labels;
  }
  for (const auto& key : json.keys()) {
    AxisLabels entry{key, {}};
    for (std::size_t i = 0; i < json[key].size(); ++i) {
      entry.names.push_back(json[key].at(i).as_string());
    }
    labels.push_back(std::move(entry));
  }
  return labels;
}

/// `,\n  "question": ..., "answer": [...], "baseline": {KEY: VALUE, ...}`, each only when there is one.
std::string question_json(const Plan& plan) {
  std::string text = plan.question.empty() ? "" : ",\n  \"question\": " + json_quote(plan.question);
  if (!plan.answer.empty()) {
    text += ",\n  \"answer\": [";
    for (std::size_t i = 0; i < plan.answer.size(); ++i) {
      text += (i == 0 ? "" : ", ") + json_quote(plan.answer[i]);
    }
    text += "]";
  }
  if (!plan.baseline.empty()) {
    text += ",\n  \"baseline\": {";
    for (std::size_t i = 0; i < plan.baseline.size(); ++i) {
      text += (i == 0 ? "" : ", ") + json_quote(plan.baseline[i].key_path) + ": " + json_quote(plan.baseline[i].value);
    }
    text += "}";
  }
  return text;
}

void read_question(const config::Node& json, Plan& plan) {
  plan.question = json["question"].is_defined() ? json["question"].as_string() : "";
  for (std::size_t i = 0; json["answer"].is_defined() && i < json["answer"].size(); ++i) {
    plan.answer.push_back(json["answer"].at(i).as_string());
  }
  if (json["baseline"].is_defined()) {
    for (const auto& key : json["baseline"].keys()) {
      plan.baseline.emplace_back(key, json["baseline"][key].as_string());
    }
  }
}

} // namespace

Plan make_plan(const Study& study, const std::vector<Point>& points, const std::string& shard) {
  std::vector<AxisLabels> values;
  for (const auto& axis : study.grid) {
    values.push_back({axis.key_path, axis.values});
  }
  for (const auto& group : study.zips) {
    for (const auto& axis : group.axes) {
      values.push_back({axis.key_path, axis.values});
    }
  }
  return Plan{study.name, study.file,   study.base_config, axis_keys(study), points,        shard,
              values,     study.labels, study.question,    study.answer,     study.baseline};
}

std::string plan_json_text(const Plan& plan) {
  std::string text = "{\n  \"format\": " + json_quote(PLAN_FORMAT) + ",\n  \"name\": " + json_quote(plan.name) +
                     ",\n  \"study_file\": " + json_quote(plan.study_file) +
                     ",\n  \"config\": " + json_quote(plan.base_config) + ",\n  \"shard\": " + json_quote(plan.shard) +
                     ",\n  \"axes\": [";
  for (std::size_t i = 0; i < plan.axes.size(); ++i) {
    text += (i == 0 ? "" : ", ") + json_quote(plan.axes[i]);
  }
  text += "]" + lists_json("values", plan.values) + lists_json("labels", plan.labels) + question_json(plan) +
          ",\n  \"points\": [\n";
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    text += point_json(plan.points[i]) + (i + 1 < plan.points.size() ? ",\n" : "\n");
  }
  return text + "  ]\n}\n";
}

void write_plan(const std::string& study_dir, const Plan& plan) {
  metrics::write_file_atomically((fs::path(study_dir) / PLAN_FILE).string(), plan_json_text(plan));
}

Plan read_plan(const std::string& study_dir) {
  std::string path = (fs::path(study_dir) / PLAN_FILE).string();
  std::string text;
  if (!read_text_file(path, text)) {
    throw ConfigError(Location{path, 0, 0}, "",
                      "cannot read; expected a study folder written by acme-sim sweep (with study.json)");
  }
  config::Node json = config::load_json_text(text, path);
  if (!json.is_map() || json["format"].as_string() != PLAN_FORMAT) {
    json.fail(std::string("expected a study.json of format ") + PLAN_FORMAT);
  }
  json.expect_keys({"format", "name", "study_file", "config", "shard", "axes", "values", "labels", "question", "answer",
                    "baseline", "points"});
  Plan plan;
  plan.name = json["name"].as_string();
  plan.study_file = json["study_file"].as_string();
  plan.base_config = json["config"].as_string();
  plan.shard = json["shard"].is_defined() ? json["shard"].as_string() : "";
  for (std::size_t i = 0; i < json["axes"].size(); ++i) {
    plan.axes.push_back(json["axes"].at(i).as_string());
  }
  plan.values = read_lists(json["values"]); // absent in study folders of earlier versions
  plan.labels = read_lists(json["labels"]);
  read_question(json, plan);
  for (std::size_t i = 0; i < json["points"].size(); ++i) {
    plan.points.push_back(read_point(json["points"].at(i)));
  }
  return plan;
}

bool same_study(const Plan& a, const Plan& b) {
  return a.axes == b.axes && a.points == b.points;
}

} // namespace acme::study
