#pragma once

#include <string>
#include <vector>

namespace acme::cli {

/// Each subcommand returns the process exit code (0 ok, 1 check failed, 2 bad input).
int cmd_run(std::vector<std::string> args);
int cmd_list(std::vector<std::string> args);
int cmd_sweep(std::vector<std::string> args);
int cmd_merge(std::vector<std::string> args);
int cmd_check(std::vector<std::string> args);
int cmd_validate(std::vector<std::string> args);
int cmd_gen(std::vector<std::string> args);
int cmd_report(std::vector<std::string> args);
int cmd_export(std::vector<std::string> args);
int cmd_config(std::vector<std::string> args);
int cmd_rerun(std::vector<std::string> args);
/// `acme-sim validate workload ARGS` (the subject's own arguments, after cmd_validate took its own).
int cmd_validate_workload(std::vector<std::string> args);

/// "acme-sim VERSION (commit HASH)": what `acme-sim --version` prints (generated at build time).
std::string version_text();

/// The default config compiled into the binary (configs/acme.yaml).
const std::string& embedded_default_config();

} // namespace acme::cli
