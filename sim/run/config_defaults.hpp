#pragma once

#include <string>
#include <vector>

#include "policies/builtin.hpp"
#include "sim/config/config.hpp"

namespace acme::run {

/// "path.key: value" for every parameter a run used at its default because the config leaves it out:
/// of each policy it runs (per cluster, checkpoint, recovery) and of each config section declared in a
/// parameter table (config::section_docs()), in config order. Policies without a table (Python) and
/// sections still parsed by hand are not listed. config.resolved.yaml ends with them as comments.
std::vector<std::string> unwritten_defaults(const config::Config& cfg, const policies::PolicyRegistries& registries);

} // namespace acme::run
