#pragma once

// A power parameter ("300W") for the parameter tables of the config's power and cluster sections.

#include <string>
#include <utility>

#include "sim/config/param_table.hpp"

namespace acme::config {

/// A power ("300W"), shown in watts.
template <class P>
Param<P> power_param(std::string key, double P::*field, std::string doc) {
  return {std::move(key), std::move(doc), [field](const Node& v, P& p) { p.*field = v.as_power_W(); },
          [field](const P& p) { return format_number(p.*field) + "W"; }};
}

} // namespace acme::config
