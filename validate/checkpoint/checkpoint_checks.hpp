#pragma once

#include "validate/scenario_run.hpp"

namespace acme::validate {

/// `acme-sim validate checkpoint`: the checkpoint/recovery model against closed forms (expected wall
/// time, Young/Daly intervals, the simulated optimum) and the paper's sync/async checkpoint overhead
/// ratios. Prints the report; returns the exit code (0 pass, 1 a check failed).
int check_checkpoint(const ValidationContext& ctx);

} // namespace acme::validate
