#pragma once

#include "validate/scenario_run.hpp"
#include "validate/validation_report.hpp"

namespace acme::validate {

/// Real fleets' figures (data/fleets/reliability_figures.csv) against the failure model: Llama 3's
/// per-category counts back from their rates (gated within Poisson bands), Meta RSC's job MTTF at 8 and
/// 1,024 GPUs (the best constant rate and its residuals reported; the simulated MTTF at that rate gated
/// against 1 / (N r)), Meta's ETTR closed form against the simulated ETTR (gated within 0.02). Returns
/// whether its checks passed.
bool check_fleets(const ValidationContext& ctx, ValidationReport& report);

} // namespace acme::validate
