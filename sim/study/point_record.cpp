#include "sim/study/point_record.hpp"

#include <filesystem>

#include "sim/config/node.hpp"
#include "sim/model/error.hpp"
#include "sim/study/text_format.hpp"

namespace acme::study {
namespace {

namespace fs = std::filesystem;

bool same_point(const config::Node& json, const Point& point) {
  config::Node overrides = json["overrides"];
  if (json["id"].as_string() != point.id || json["seed"].as_string() != std::to_string(point.seed) ||
      !overrides.is_map() || overrides.size() != point.overrides.size()) {
    return false;
  }
  for (const auto& o : point.overrides) {
    config::Node value = overrides[o.key_path];
    if (!value.is_scalar() || value.as_string() != o.value) {
      return false;
    }
  }
  return true;
}

/// A finished point's metrics and the content hash of each input its run read, by key (summary.json
/// "provenance"; none in folders of versions that did not record them: such a point runs again), from one
/// parse of its summary.json.
void read_summary(const std::string& path, PointRecord& record) {
  std::string text;
  if (!read_text_file(path, text)) {
    throw ConfigError(Location{path, 0, 0}, "", "cannot read; expected a run's summary.json");
  }
  config::Node root = config::load_json_text(text, path);
  record.metrics = flatten_metrics(root);
  config::Node inputs = root["provenance"]["inputs"];
  if (inputs.is_map()) {
    for (const auto& [key, input] : inputs.items()) {
      record.inputs[key] = input["hash"].as_string();
    }
  }
}

} // namespace

std::string point_json_text(const Point& point, const PointRecord& record, const std::vector<std::string>& command) {
  std::string text = "{\n  \"id\": " + json_quote(point.id) + ",\n  \"group\": " + json_quote(point.group_id) +
                     ",\n  \"seed\": " + std::to_string(point.seed) + ",\n  \"overrides\": {";
  for (std::size_t i = 0; i < point.overrides.size(); ++i) {
    text +=
        (i == 0 ? "" : ", ") + json_quote(point.overrides[i].key_path) + ": " + json_quote(point.overrides[i].value);
  }
  text += "},\n  \"status\": " + json_quote(record.status) + ",\n  \"exit_code\": " + std::to_string(record.exit_code) +
          ",\n  \"error\": " + json_quote(record.error) + ",\n  \"wall_s\": " + format_number(record.wall_s) +
          ",\n  \"command\": [";
  for (std::size_t i = 0; i < command.size(); ++i) {
    text += (i == 0 ? "" : ", ") + json_quote(command[i]);
  }
  return text + "]\n}\n";
}

std::optional<PointRecord> read_point_record(const std::string& points_dir, const Point& point, std::string* damage) {
  fs::path dir = fs::path(points_dir) / point.id;
  std::string text;
  std::error_code ec;
  if (!read_text_file((dir / POINT_FILE).string(), text)) {
    if (damage != nullptr && fs::exists(dir, ec)) {
      *damage = (dir / POINT_FILE).string() + ": cannot read (the point's run did not finish)";
    }
    return std::nullopt;
  }
  try {
    config::Node json = config::load_json_text(text, (dir / POINT_FILE).string());
    if (!json.is_map() || !same_point(json, point)) {
      if (damage != nullptr) {
        *damage = (dir / POINT_FILE).string() + ": describes another point than " + point.id;
      }
      return std::nullopt;
    }
    PointRecord record;
    record.id = point.id;
    record.status = json["status"].as_string();
    record.exit_code = static_cast<int>(json["exit_code"].as_int());
    record.error = json["error"].is_defined() ? json["error"].as_string() : "";
    record.wall_s = json["wall_s"].as_double();
    if (record.status == STATUS_OK) {
      read_summary((dir / SUMMARY_FILE).string(), record);
    } else if (record.status != STATUS_FAILED) {
      json["status"].fail("unknown status \"" + record.status + "\"; expected ok or failed");
    }
    return record;
  } catch (const ConfigError& e) {
    if (damage != nullptr) {
      *damage = e.what();
    }
    return std::nullopt; // a damaged point folder: the point runs again
  }
}

std::map<std::string, PointRecord> read_point_records(const std::string& points_dir, const std::vector<Point>& points,
                                                      std::map<std::string, std::string>* damaged) {
  std::map<std::string, PointRecord> records;
  for (const auto& point : points) {
    std::string damage;
    if (auto record = read_point_record(points_dir, point, &damage)) {
      records.emplace(point.id, std::move(*record));
    } else if (damaged != nullptr && !damage.empty()) {
      damaged->emplace(point.id, damage);
    }
  }
  return records;
}

} // namespace acme::study
