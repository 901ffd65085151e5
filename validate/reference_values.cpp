#include "validate/reference_values.hpp"

#include <yaml-cpp/yaml.h>

#include "sim/model/assert.hpp"

namespace acme::validate {
namespace {

double number_or_zero(const YAML::Node& entry, const char* key) {
  YAML::Node field = entry[key];
  return field.IsDefined() ? field.as<double>() : 0.0;
}

} // namespace

ReferenceTable::ReferenceTable(std::string_view text, std::string name) : name_(std::move(name)) {
  YAML::Node root = YAML::Load(std::string(text));
  ACME_ASSERT(root.IsMap(), name_ + ": expected a map of reference numbers");
  for (const auto& item : root) {
    const YAML::Node& entry = item.second;
    std::string key = item.first.as<std::string>();
    ACME_ASSERT(entry.IsMap() && entry["source"].IsDefined(), name_ + ": " + key + " must be a map with a source");
    values_[key] =
        ReferenceValue{number_or_zero(entry, "value"), number_or_zero(entry, "tolerance"), number_or_zero(entry, "low"),
                       number_or_zero(entry, "high"), entry["source"].as<std::string>()};
  }
}

const ReferenceValue& ReferenceTable::at(const std::string& key) const {
  auto it = values_.find(key);
  ACME_ASSERT(it != values_.end(), name_ + " has no reference \"" + key + "\"");
  return it->second;
}

} // namespace acme::validate
