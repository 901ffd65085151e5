#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/named_registry.hpp"
#include "sim/config/param_table.hpp"

namespace acme::policies {

using config::ParamDoc;

/// What a policy may know about the run it is built for (besides its own parameters).
struct PolicyContext {
  std::uint64_t seed = 0; ///< the run seed: policies draw randomness from model::Rng(seed, name)
  std::string cluster;    ///< the cluster it serves
  std::string base_dir;   ///< the config's folder: relative paths in policy parameters resolve against it
};

/// One registered policy: its YAML name, a line for `acme-sim list`, its parameter table and its factory.
template <class Policy>
struct PolicyEntry {
  using Factory = std::function<std::unique_ptr<Policy>(const config::Node& params, const PolicyContext& context)>;
  std::string name;
  std::string summary;
  std::vector<ParamDoc> params;
  Factory make;
};

/// Policies of one family keyed by their YAML name. Owned by whoever builds the run; no globals.
template <class Policy>
class Registry : public config::NamedRegistry<PolicyEntry<Policy>> {
public:
  using Entry = PolicyEntry<Policy>;
  using Factory = typename Entry::Factory;
  using config::NamedRegistry<Entry>::NamedRegistry;

  void add(std::string name, std::string summary, std::vector<ParamDoc> params, Factory make) {
    std::string key = name;
    this->put(std::move(key), Entry{std::move(name), std::move(summary), std::move(params), std::move(make)});
  }

  /// Builds the policy named by `spec`; an unknown name fails at its `name:` with the accepted names.
  std::unique_ptr<Policy> create(const config::PolicySpec& spec, const PolicyContext& context) const {
    config::Node where = spec.node.is_map() ? spec.node["name"] : spec.node;
    return this->at(spec.name, where).make(spec.node, context);
  }
};

} // namespace acme::policies
