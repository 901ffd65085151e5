#pragma once

#include "sim/config/config.hpp"
#include "sim/config/node.hpp"

namespace acme::config {

/// A cluster's `pods:` section (PodConfig); absent: everything off.
PodConfig parse_pods(const Node& node);

} // namespace acme::config
