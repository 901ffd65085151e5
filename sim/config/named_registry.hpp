#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/node.hpp"
#include "sim/model/error.hpp"

namespace acme::config {

/// Entries keyed by the YAML name that selects them (the policies of a family, trace formats, workload
/// kinds), filled explicitly by whoever builds the run: no globals, no self-registration.
template <class Entry>
class NamedRegistry {
public:
  /// `family` names an entry in messages: "scheduler", "trace format", "workload kind".
  explicit NamedRegistry(std::string family) : family_(std::move(family)) {}

  /// Registers `entry` as `name`, replacing an entry of that name.
  void put(std::string name, Entry entry) { entries_.insert_or_assign(std::move(name), std::move(entry)); }

  /// The entry registered as `name`. Unknown: fails at `where` with the accepted names and a hint
  /// ("unknown trace format "swff"; expected one of: acme, alibaba, philly, swf (did you mean "swf"?)").
  const Entry& at(const std::string& name, const Node& where) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      std::string msg = "unknown " + family_ + " \"" + name + "\"; expected one of: " + join(names());
      if (auto hint = did_you_mean(name, names()); !hint.empty()) {
        msg += " (did you mean \"" + hint + "\"?)";
      }
      where.fail(msg);
    }
    return it->second;
  }

  /// The registered names, sorted.
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

} // namespace acme::config
