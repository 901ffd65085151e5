#pragma once

#include <string>
#include <vector>

namespace acme::cli {

/// What a validation subject needs: the acme-sim binary (to run simulations in their own
/// processes: one SimGrid engine per process) and a scratch folder.
struct ValidationContext {
  std::string self_exe;
  std::string work_dir;
  std::vector<std::string> args; ///< the subject's own arguments
};

/// `acme-sim validate checkpoint`: closed-form oracles of the checkpoint/recovery model and the
/// paper's async-checkpoint ratios. Returns the exit code (0 pass, 1 a check failed).
int validate_checkpoint(const ValidationContext& context);

/// `acme-sim validate workload`: the synthetic Acme workload against the paper's data
/// (sim/cli/cmd_validate_workload.cpp). Returns the exit code (0 pass, 1 a check failed).
int validate_workload(const ValidationContext& context);

/// `acme-sim validate eval`: the HumanEval trial profile, the coupled/decoupled makespan ratios of a 7B
/// model on 63 datasets (paper: 1.3x on 1 node, 1.8x on 4) and the per-trial model-load throughput
/// curve (sim/cli/validate_eval.cpp). Returns the exit code (0 pass, 1 a check failed).
int validate_eval(const ValidationContext& context);

} // namespace acme::cli
