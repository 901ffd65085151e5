#pragma once

#include <string>
#include <utility>

#include "sim/config/named_registry.hpp"

namespace acme::workloads {

/// A factory of a trace format or workload kind and its line for `acme-sim list`.
template <class Factory>
struct FactoryEntry {
  std::string summary;
  Factory make;
};

/// Factories keyed by their YAML name (trace formats, workload kinds): config::NamedRegistry with the
/// factory as the entry's payload.
template <class Factory>
class NamedRegistry : public config::NamedRegistry<FactoryEntry<Factory>> {
public:
  using config::NamedRegistry<FactoryEntry<Factory>>::NamedRegistry;

  /// Registers `make` as `name` (replacing an entry of that name).
  void add(std::string name, std::string summary, Factory make) {
    this->put(std::move(name), FactoryEntry<Factory>{std::move(summary), std::move(make)});
  }

  /// The factory registered as `name`; unknown: fails at `where` with the accepted names and a hint.
  const Factory& get(const std::string& name, const config::Node& where) const { return this->at(name, where).make; }
};

} // namespace acme::workloads
