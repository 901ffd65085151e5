#include <algorithm>
#include <charconv>

#include "sim/config/config.hpp"
#include "sim/config/node.hpp"
#include "sim/model/limits.hpp"

namespace acme::config {
namespace {

struct PathStep {
  std::string key;       ///< map key (empty when the step is an index)
  std::size_t index = 0; ///< sequence index
  bool is_index = false;
  bool every = false; ///< `[*]`: every element (expand_overrides() replaces it by each index)
};

/// Keys whose mapping is a policy spec ({name: NAME, its parameters}): a new name there starts the
/// policy from its defaults (the old policy's parameters would be unknown keys of the new one).
const std::vector<std::string> POLICY_SPEC_KEYS = {"scheduler", "placement", "power", "policy", "dispatch"};

[[noreturn]] void bad_override(const Location& where, const std::string& what) {
  throw ConfigError(where, "", what + "; expected key.path=value, e.g. clusters[0].nodes=16 or seed=7");
}

[[noreturn]] void bad_override(const std::string& argument, const std::string& what) {
  bad_override(Location{"--set " + excerpt(argument), 0, 0}, what);
}

std::vector<PathStep> split_path(const std::string& path, const std::string& argument) {
  std::vector<PathStep> steps;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path.compare(i, 3, "[*]") == 0) {
      steps.push_back({"", 0, true, true});
      i += 3;
      continue;
    }
    if (path[i] == '[') {
      auto close = path.find(']', i);
      std::size_t index = 0;
      auto [end, ec] =
          std::from_chars(path.data() + i + 1, path.data() + (close == std::string::npos ? i + 1 : close), index);
      if (close == std::string::npos || ec != std::errc() || end != path.data() + close) {
        bad_override(argument, "malformed index in \"" + path + "\"");
      }
      steps.push_back({"", index, true});
      i = close + 1;
      continue;
    }
    auto end = path.find_first_of(".[", i);
    end = end == std::string::npos ? path.size() : end;
    steps.push_back({path.substr(i, end - i), 0, false});
    i = end;
  }
  if (steps.empty()) {
    bad_override(argument, "empty key path");
  }
  return steps;
}

bool is_policy_spec(const PathStep& step) {
  return !step.is_index &&
         std::find(POLICY_SPEC_KEYS.begin(), POLICY_SPEC_KEYS.end(), step.key) != POLICY_SPEC_KEYS.end();
}

/// A policy spec whose name changes keeps only its name: the new policy starts from its defaults.
void restart_policy(YAML::Node& spec, const YAML::Node& name) {
  YAML::Node old = spec["name"];
  if (!old || !old.IsScalar() || !name.IsScalar() || old.Scalar() == name.Scalar()) {
    return;
  }
  std::vector<std::string> keys;
  for (const auto& entry : spec) {
    keys.push_back(entry.first.Scalar());
  }
  for (const auto& key : keys) {
    if (key != "name") {
      spec.remove(key);
    }
  }
}

/// The node at the first `count` steps of `steps` (undefined when the tree has none there).
YAML::Node node_at(const YAML::Node& root, const std::vector<PathStep>& steps, std::size_t count) {
  YAML::Node current = root;
  for (std::size_t s = 0; s < count && current.IsDefined(); ++s) {
    const YAML::Node& here = current; // const: a missing key reads as undefined, nothing is created
    if (steps[s].is_index) {
      if (!here.IsSequence() || steps[s].index >= here.size()) {
        return YAML::Node(YAML::NodeType::Undefined);
      }
      current.reset(here[steps[s].index]); // reset: assignment would overwrite the node it refers to
    } else {
      if (!here.IsMap()) {
        return YAML::Node(YAML::NodeType::Undefined);
      }
      YAML::Node next = here[steps[s].key];
      if (!next.IsDefined()) { // a missing key gives an invalid node, which reset() refuses
        return YAML::Node(YAML::NodeType::Undefined);
      }
      current.reset(next);
    }
  }
  return current;
}

std::string join_path(const std::vector<PathStep>& steps) {
  std::string path;
  for (const auto& step : steps) {
    path += step.every      ? "[*]"
            : step.is_index ? "[" + std::to_string(step.index) + "]"
                            : (path.empty() ? "" : ".") + step.key;
  }
  return path;
}

} // namespace

std::vector<Override> expand_overrides(const YAML::Node& root, const std::vector<Override>& overrides) {
  std::vector<Override> out;
  for (const auto& o : overrides) {
    std::vector<PathStep> steps = split_path(o.key_path, o.key_path + "=" + o.value);
    auto every = std::find_if(steps.begin(), steps.end(), [](const PathStep& step) { return step.every; });
    if (every == steps.end()) {
      out.push_back(o);
      continue;
    }
    auto at = static_cast<std::size_t>(every - steps.begin());
    YAML::Node list = node_at(root, steps, at);
    if (!list.IsSequence()) {
      bad_override(override_location(o),
                   "\"" + join_path({steps.begin(), every}) + "\" is not a list, so [*] has nothing to address");
    }
    auto too_many = [&o](std::size_t count) {
      if (count > model::limits::MAX_EXPANDED_OVERRIDES) {
        bad_override(override_location(o), "[*] expands to more than " +
                                               std::to_string(model::limits::MAX_EXPANDED_OVERRIDES) +
                                               " settings; expected [*] over lists of a config's size");
      }
    };
    too_many(out.size() + list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      steps[at] = PathStep{"", i, true, false};
      for (auto& expanded : expand_overrides(root, {Override{join_path(steps), o.value, override_location(o)}})) {
        out.push_back(std::move(expanded));
        too_many(out.size());
      }
    }
  }
  return out;
}

Override parse_override(const std::string& argument) {
  auto eq = argument.find('=');
  if (eq == std::string::npos) {
    bad_override(argument, "missing '='");
  }
  if (eq == 0) {
    bad_override(argument, "missing the key path before '='");
  }
  Override o{argument.substr(0, eq), argument.substr(eq + 1)};
  split_path(o.key_path, argument); // validates the path syntax now
  return o;
}

Location override_location(const Override& override_value) {
  if (!override_value.where.file.empty()) {
    return override_value.where;
  }
  return Location{"--set " + excerpt(override_value.key_path + "=" + override_value.value), 0, 0};
}

YAML::Node apply_override(YAML::Node& root, const Override& override_value) {
  const std::string argument = override_value.key_path + "=" + override_value.value;
  const Location where = override_location(override_value);
  std::vector<PathStep> steps = split_path(override_value.key_path, argument);
  if (override_value.value.find_first_not_of(" \t") == std::string::npos) {
    bad_override(where, "the value after '=' is empty");
  }
  YAML::Node value;
  try {
    value = load_yaml_text(override_value.value, "value").yaml();
  } catch (const ConfigError& e) {
    bad_override(where, std::string("the value is not valid YAML (") + e.what() + ")");
  }
  // Walk with references (yaml-cpp handles are shared), creating maps as needed.
  std::vector<YAML::Node> chain{root};
  for (std::size_t s = 0; s < steps.size(); ++s) {
    YAML::Node current = chain.back();
    const PathStep& step = steps[s];
    bool last = s + 1 == steps.size();
    if (step.every) {
      bad_override(where, "[*] left unexpanded in \"" + override_value.key_path + "\"");
    }
    if (step.is_index) {
      if (!current.IsSequence() || step.index >= current.size()) {
        bad_override(where, "index [" + std::to_string(step.index) + "] does not exist in the config");
      }
      if (last) {
        current[step.index] = value;
        return value;
      }
      chain.push_back(current[step.index]);
      continue;
    }
    if (current.IsDefined() && !current.IsNull() && !current.IsMap()) {
      bad_override(where, "\"" + step.key + "\" is below a value that is not a mapping");
    }
    if (last) {
      if (step.key == "name" && s > 0 && is_policy_spec(steps[s - 1]) && current.IsMap()) {
        restart_policy(current, value);
      }
      current[step.key] = value;
      return value;
    }
    chain.push_back(current[step.key]);
  }
  return value;
}

} // namespace acme::config
