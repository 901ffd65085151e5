#pragma once

#include "validate/scenario_run.hpp"
#include "validate/validation_report.hpp"

namespace acme::validate {

/// The InfiniteHBD fault trace (400 servers, 348 days) against the lemon mixture: fitted on the faults
/// before day 174.5, the model's per-node distribution of faults after it is compared with the trace's
/// (chi-square) and so is the share of faults on the worst 10% of nodes; a uniform rate beside it. Gated:
/// the lemon model is nearer the trace than the uniform rate on both; the absolute fit is reported.
/// Returns whether its checks passed.
bool check_hbd_trace(const ValidationContext& ctx, ValidationReport& report);

} // namespace acme::validate
