#pragma once

#include "validate/scenario_run.hpp"

namespace acme::validate {

/// `acme-sim validate failures`: the failure process and automatic recovery against closed forms (a single
/// job's expected time with a fixed restart, the failure count with lemon nodes). Prints the report;
/// returns the exit code (0 pass, 1 a check failed).
int check_failures(const ValidationContext& ctx, const std::string& default_config_path);

} // namespace acme::validate
