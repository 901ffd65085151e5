#pragma once

#include "sim/config/config.hpp"
#include "sim/config/node.hpp"

namespace acme::config {

/// The config's `output:` section (OutputConfig); absent: the defaults.
OutputConfig parse_output(const Node& node);

} // namespace acme::config
