#pragma once

#include <string>
#include <vector>

#include "validate/scenario_run.hpp"

namespace acme::validate {

/// `acme-sim validate network`: the fluid network model against closed forms (max-min fair shares on
/// one bottleneck, the ring all-reduce time, the slowdown a k-leaf job gets from an oversubscribed
/// fabric) and the paper's measured NIC use on Seren, next to the simulated figures; and how much the
/// default config's queueing delay and JCT move when the model is switched on. `default_config` is the
/// path of the default config; `overrides` apply to its runs (e.g. a shorter workload). Prints the
/// report; returns the exit code (0 pass, 1 a check failed).
int check_network(const ValidationContext& ctx, const std::string& default_config,
                  const std::vector<config::Override>& overrides);

} // namespace acme::validate
