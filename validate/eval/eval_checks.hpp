#pragma once

#include "validate/scenario_run.hpp"

namespace acme::validate {

/// `acme-sim validate eval`: the HumanEval trial profile, the coupled/decoupled makespan ratios of a 7B
/// model on 63 datasets (paper: 1.3x on 1 node, 1.8x on 4) and the per-trial model-load throughput
/// curve. Prints the report; returns the exit code (0 pass, 1 a check failed).
int check_eval(const ValidationContext& ctx);

} // namespace acme::validate
