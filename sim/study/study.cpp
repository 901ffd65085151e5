#include "sim/study/study.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <set>

#include "sim/config/node.hpp"
#include "sim/model/error.hpp"
#include "sim/model/limits.hpp"
#include "sim/study/study_question.hpp"

namespace acme::study {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> STUDY_KEYS = {"name",  "description", "config",   "set",    "grid",    "zip",
                                             "seeds", "labels",      "question", "answer", "baseline"};

} // namespace

std::string value_text(const config::Node& value) {
  YAML::Emitter out;
  if (value.is_scalar()) {
    if (value.yaml().Tag() != "!") {
      return value.yaml().Scalar(); // plain: as written
    }
    out << value.yaml().Scalar(); // quoted: the emitter keeps the quotes a string like '{a: 1}' needs
    return out.c_str();
  }
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out << value.yaml();
  return out.c_str();
}

namespace {

/// Validates the key syntax the way `--set` does, with the study file's location on errors.
void check_key(const config::Node& map, const std::string& key) {
  try {
    config::parse_override(key + "=x");
  } catch (const ConfigError& e) {
    map[key].fail("\"" + key + "\" is not a config key path (" + e.what() + ")");
  }
  if (key == "seed") {
    map[key].fail("the seed is set by `seeds:`; expected a config key other than seed");
  }
}

/// One axis; a grid axis's values must differ (a zip axis's may repeat: its columns must differ).
Axis parse_axis(const config::Node& map, const std::string& key, bool distinct) {
  check_key(map, key);
  config::Node list = map[key];
  if (!list.is_sequence() || list.size() == 0) {
    list.fail("expected a non-empty list of values, e.g. [fifo, easy_backfill]");
  }
  if (list.size() > model::limits::MAX_STUDY_POINTS) {
    list.fail("expected at most " + std::to_string(model::limits::MAX_STUDY_POINTS) + " values, got " +
              std::to_string(list.size()));
  }
  Axis axis{key, {}, list.location(), {}};
  std::set<std::string> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string text = value_text(list.at(i));
    if (distinct && !seen.insert(text).second) {
      list.at(i).fail("value \"" + text + "\" appears twice; expected distinct values");
    }
    axis.values.push_back(text);
    axis.value_where.push_back(list.at(i).location());
  }
  return axis;
}

std::vector<Axis> parse_axes(const config::Node& map, bool distinct) {
  map.expect_map();
  std::vector<Axis> axes;
  for (const auto& key : map.keys()) {
    axes.push_back(parse_axis(map, key, distinct));
  }
  return axes;
}

ZipGroup parse_zip_group(const config::Node& map) {
  ZipGroup group{parse_axes(map, false)};
  if (group.axes.empty()) {
    map.fail("expected at least one key with a list of values");
  }
  for (const auto& axis : group.axes) {
    if (axis.values.size() != group.axes.front().values.size()) {
      map[axis.key_path].fail("has " + std::to_string(axis.values.size()) + " values but " +
                              group.axes.front().key_path + " has " + std::to_string(group.axes.front().values.size()) +
                              "; expected lists of equal length (zip varies them together)");
    }
  }
  std::set<std::vector<std::string>> columns;
  for (std::size_t i = 0; i < group.axes.front().values.size(); ++i) {
    std::vector<std::string> column;
    for (const auto& axis : group.axes) {
      column.push_back(axis.values[i]);
    }
    if (!columns.insert(column).second) {
      map[group.axes.front().key_path].at(i).fail("entry " + std::to_string(i + 1) +
                                                  " repeats an earlier entry in every list of its zip group; "
                                                  "expected distinct combinations");
    }
  }
  return group;
}

std::vector<ZipGroup> parse_zips(const config::Node& zip) {
  std::vector<ZipGroup> groups;
  if (!zip.is_defined()) {
    return groups;
  }
  if (zip.is_map()) {
    groups.push_back(parse_zip_group(zip));
    return groups;
  }
  if (!zip.is_sequence()) {
    zip.fail("expected a map of key: [values] or a list of such maps");
  }
  for (std::size_t i = 0; i < zip.size(); ++i) {
    groups.push_back(parse_zip_group(zip.at(i)));
  }
  return groups;
}

std::uint64_t config_seed(const std::string& config_path) {
  config::Node root = config::load_yaml_file(config_path);
  config::Node seed = root["seed"];
  return seed.is_defined() ? seed.as_u64() : 0; // 0: the config loader's default seed
}

std::vector<std::uint64_t> parse_seeds(const config::Node& seeds, const std::string& config_path) {
  if (!seeds.is_defined()) {
    return {config_seed(config_path)};
  }
  std::vector<std::uint64_t> out;
  constexpr auto MAX_SEEDS = static_cast<std::uint32_t>(model::limits::MAX_SEEDS);
  if (seeds.is_scalar()) {
    std::uint32_t count = seeds.as_count_upto(MAX_SEEDS); // replicas: seeds 1..N
    for (std::uint32_t s = 1; s <= count; ++s) {
      out.push_back(s);
    }
    return out;
  }
  if (!seeds.is_sequence() || seeds.size() == 0 || seeds.size() > MAX_SEEDS) {
    seeds.fail("expected a number of replicas or a non-empty list of at most " + std::to_string(MAX_SEEDS) + " seeds");
  }
  std::set<std::uint64_t> seen;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    std::uint64_t seed = seeds.at(i).as_u64();
    if (!seen.insert(seed).second) {
      seeds.at(i).fail("seed " + std::to_string(seed) + " appears twice; expected distinct seeds");
    }
    out.push_back(seed);
  }
  return out;
}

std::vector<config::Override> parse_fixed(const config::Node& set) {
  std::vector<config::Override> fixed;
  if (!set.is_defined()) {
    return fixed;
  }
  set.expect_map();
  for (const auto& key : set.keys()) {
    check_key(set, key);
    fixed.push_back({key, value_text(set[key]), set[key].location()});
  }
  return fixed;
}

/// A key may be set once: fixed, in the grid or in one zip group.
void check_unique_keys(const Study& study, const config::Node& root) {
  std::set<std::string> seen;
  auto claim = [&seen](const std::string& key, const Location& where, const std::string& section) {
    if (!seen.insert(key).second) {
      throw ConfigError(where, section + "." + key,
                        "is set in more than one place (set, grid, zip); expected each key once");
    }
  };
  for (const auto& o : study.fixed) {
    claim(o.key_path, root["set"][o.key_path].location(), "set");
  }
  for (const auto& axis : study.grid) {
    claim(axis.key_path, axis.where, "grid");
  }
  for (const auto& group : study.zips) {
    for (const auto& axis : group.axes) {
      claim(axis.key_path, axis.where, "zip");
    }
  }
}

/// grid x zip x seeds stays within limits::MAX_STUDY_POINTS (counted before any point is made).
void check_point_count(const Study& study, const config::Node& root) {
  double points = static_cast<double>(study.seeds.size());
  for (const auto& axis : study.grid) {
    points *= static_cast<double>(axis.values.size());
  }
  for (const auto& group : study.zips) {
    points *= static_cast<double>(group.axes.front().values.size());
  }
  if (points > static_cast<double>(model::limits::MAX_STUDY_POINTS)) {
    root.fail("the study has " + number_text(points) + " points (grid x zip x seeds); expected at most " +
              std::to_string(model::limits::MAX_STUDY_POINTS));
  }
}

/// The axis called `key` (grid or zip), or nullptr.
const Axis* find_axis(const Study& study, const std::string& key) {
  for (const auto& axis : study.grid) {
    if (axis.key_path == key) {
      return &axis;
    }
  }
  for (const auto& group : study.zips) {
    for (const auto& axis : group.axes) {
      if (axis.key_path == key) {
        return &axis;
      }
    }
  }
  return nullptr;
}

/// `labels: {KEY: [name, ...]}`: one distinct name per value of a varied key.
std::vector<AxisLabels> parse_labels(const config::Node& labels, const Study& study) {
  std::vector<AxisLabels> out;
  if (!labels.is_defined()) {
    return out;
  }
  labels.expect_map();
  for (const auto& key : labels.keys()) {
    const Axis* axis = find_axis(study, key);
    if (axis == nullptr) {
      labels[key].fail("is not varied by grid or zip; expected one of: " + join(axis_keys(study), ", "));
    }
    config::Node list = labels[key];
    if (!list.is_sequence() || list.size() != axis->values.size()) {
      list.fail("expected a list of " + std::to_string(axis->values.size()) + " names, one per value of " + key);
    }
    AxisLabels entry{key, {}};
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::string name = list.at(i).as_string();
      if (name.empty() || !seen.insert(name).second) {
        list.at(i).fail("expected distinct, non-empty names, got \"" + name + "\"");
      }
      entry.names.push_back(name);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

std::string resolve_config(const config::Node& config, const std::string& base_dir) {
  if (!config.is_defined()) {
    config.fail("missing; expected `config: PATH` (the base config, relative to the study file)");
  }
  fs::path path(config.as_string());
  if (path.is_relative()) {
    path = fs::path(base_dir) / path;
  }
  std::error_code ec;
  fs::path absolute = fs::weakly_canonical(fs::absolute(path), ec);
  if (ec || !fs::is_regular_file(absolute)) {
    config.fail("cannot read \"" + path.string() + "\"; expected the path of a config file");
  }
  return absolute.string();
}

/// A study's name names its output folder (out/NAME) and its Slurm job: letters, digits, '_', '-' and '.',
/// not starting with '.', at most NAME_MAX_CHARS, so it can neither leave out/ nor reach a shell or sbatch.
constexpr std::size_t NAME_MAX_CHARS = 100;

bool is_safe_study_name(const std::string& name) {
  return !name.empty() && name.size() <= NAME_MAX_CHARS && name.front() != '.' &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") ==
             std::string::npos;
}

constexpr const char* NAME_EXPECTED = "expected letters, digits, '_', '-' and '.', not starting with '.', at most 100 "
                                      "characters (it names the folder out/NAME and the Slurm job)";

std::string study_name(const config::Node& root, const std::string& display_name) {
  if (root["name"].is_defined()) {
    std::string name = root["name"].as_string();
    if (!is_safe_study_name(name)) {
      root["name"].fail("\"" + excerpt(name) + "\" is not a study name; " + NAME_EXPECTED);
    }
    return name;
  }
  std::string stem = fs::path(display_name).stem().string();
  if (!is_safe_study_name(stem)) {
    throw ConfigError(Location{display_name, 0, 0}, "name",
                      "the file name \"" + excerpt(stem) + "\" cannot name the study; add a name: key, " +
                          NAME_EXPECTED);
  }
  return stem;
}

Study parse_study(const config::Node& root, const std::string& display_name, const std::string& base_dir) {
  if (!root.is_map()) {
    root.fail("expected a study: a map with config, grid, zip, seeds (see configs/studies/)");
  }
  root.expect_keys(STUDY_KEYS);
  Study study;
  study.file = display_name;
  study.name = study_name(root, display_name);
  study.base_config = resolve_config(root["config"], base_dir);
  study.fixed = parse_fixed(root["set"]);
  if (root["grid"].is_defined()) {
    study.grid = parse_axes(root["grid"], true);
  }
  study.zips = parse_zips(root["zip"]);
  study.seeds = parse_seeds(root["seeds"], study.base_config);
  check_unique_keys(study, root);
  check_point_count(study, root);
  study.labels = parse_labels(root["labels"], study);
  parse_question(root, study);
  return study;
}

} // namespace

Study load_study(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw ConfigError(Location{path, 0, 0}, "", "cannot read the study file; expected a study YAML file");
  }
  config::Node root = config::load_yaml_file(path);
  std::string base_dir = fs::absolute(fs::path(path)).parent_path().string();
  return parse_study(root, path, base_dir);
}

Study parse_study_text(const std::string& text, const std::string& name, const std::string& base_dir) {
  return parse_study(config::load_yaml_text(text, name), name, base_dir);
}

std::vector<std::string> axis_keys(const Study& study) {
  std::vector<std::string> keys;
  for (const auto& axis : study.grid) {
    keys.push_back(axis.key_path);
  }
  for (const auto& group : study.zips) {
    for (const auto& axis : group.axes) {
      keys.push_back(axis.key_path);
    }
  }
  return keys;
}

} // namespace acme::study
