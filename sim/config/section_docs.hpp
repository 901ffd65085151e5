#pragma once

#include <string>
#include <vector>

#include "sim/config/param_table.hpp"

namespace acme::config {

/// A config section declared in a parameter table: its path, what it is for, and its parameters with
/// their defaults (the table that parses it documents it).
struct SectionDoc {
  std::string path;
  std::string summary;
  std::vector<ParamDoc> params;
};

/// Every config section declared in a parameter table, in the order the config reference lists them.
/// Sections still parsed by hand are not here (the house issue moves them onto tables one by one).
std::vector<SectionDoc> section_docs();

} // namespace acme::config
