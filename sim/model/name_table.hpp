#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/model/ids.hpp"

namespace acme::model {

/// Interned user names: the workload maps each distinct name to a dense UserId.
class NameTable {
public:
  UserId intern(std::string_view name) {
    auto it = ids_.find(std::string(name));
    if (it != ids_.end()) {
      return it->second;
    }
    UserId id{static_cast<std::uint32_t>(names_.size())};
    names_.emplace_back(name);
    ids_.emplace(names_.back(), id);
    return id;
  }
  const std::string& name(UserId id) const { return names_.at(to_index(id)); }
  std::size_t size() const { return names_.size(); }

private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, UserId> ids_;
};

} // namespace acme::model
