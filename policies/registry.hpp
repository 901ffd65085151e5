#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/param_table.hpp"
#include "sim/model/error.hpp"

namespace acme::policies {

using config::ParamDoc;

/// What a policy may know about the run it is built for (besides its own parameters).
struct PolicyContext {
  std::uint64_t seed = 0; ///< the run seed: policies draw randomness from model::Rng(seed, name)
  std::string cluster;    ///< the cluster it serves
  std::string base_dir;   ///< the config's folder: relative paths in policy parameters resolve against it
};

/// Policies of one family keyed by their YAML name. Owned by whoever builds the run; no globals.
template <class Policy>
class Registry {
public:
  using Factory = std::function<std::unique_ptr<Policy>(const config::Node& params, const PolicyContext& context)>;

  struct Entry {
    std::string name;
    std::string summary;
    std::vector<ParamDoc> params;
    Factory make;
  };

  explicit Registry(std::string family) : family_(std::move(family)) {}

  void add(std::string name, std::string summary, std::vector<ParamDoc> params, Factory make) {
    std::string key = name;
    entries_.insert_or_assign(std::move(key),
                              Entry{std::move(name), std::move(summary), std::move(params), std::move(make)});
  }

  /// Builds the policy named by `spec`; an unknown name fails with the accepted names and a hint.
  std::unique_ptr<Policy> create(const config::PolicySpec& spec, const PolicyContext& context) const {
    auto it = entries_.find(spec.name);
    if (it == entries_.end()) {
      config::Node where = spec.node.is_map() ? spec.node["name"] : spec.node;
      std::string msg = "unknown " + family_ + " \"" + spec.name + "\"; expected one of: " + join(names());
      if (auto hint = did_you_mean(spec.name, names()); !hint.empty()) {
        msg += " (did you mean \"" + hint + "\"?)";
      }
      throw ConfigError(where.location(), where.path(), msg);
    }
    return it->second.make(spec.node, context);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_) {
      out.push_back(name);
    }
    return out;
  }

  const std::string& family() const { return family_; }
  const std::map<std::string, Entry>& entries() const { return entries_; }

private:
  std::string family_;
  std::map<std::string, Entry> entries_;
};

} // namespace acme::policies
