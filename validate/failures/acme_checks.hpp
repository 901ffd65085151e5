#pragma once

#include <string>

#include "validate/scenario_run.hpp"

namespace acme::validate {

class ValidationReport;

/// The default Acme model with its infrastructure failures on, over several seeds: the calibration check
/// (infrastructure failures' share of failed GPU time, data/README.md >82%), its category shares, the
/// failed shares of bar_job_state.csv, and the infrastructure share of failed jobs by count. Appends to
/// `report`; returns whether the gated checks passed.
bool check_acme_failures(const ValidationContext& ctx, const std::string& config_path, ValidationReport& report);

} // namespace acme::validate
