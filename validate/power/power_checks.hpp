#pragma once

#include <string>
#include <utility>
#include <vector>

#include "validate/scenario_run.hpp"

namespace acme::validate {

/// `acme-sim validate power`: the per-GPU power distribution of the run of `config_path` (the default
/// config) against the paper's DCGM samples, its GPU and CPU servers against the paper's IPMI figures, a
/// loaded server's breakdown, and the idle-cluster closed form. Prints the report; returns the exit code
/// (0 pass, 1 a check failed).
int check_power(const ValidationContext& ctx, const std::string& config_path);

/// The smallest x of a paper CDF (y in percent) whose share reaches `q` (0..1).
double paper_quantile(const std::vector<std::pair<double, double>>& curve, double q);

} // namespace acme::validate
