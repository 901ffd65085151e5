// `acme-sim validate SUBJECT`: fidelity checks. The checks, their scenarios and reference numbers are in
// validate/<subject>/; this file parses the arguments and dispatches.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>

#include "sim/cli/commands.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "sim/model/error.hpp"
#include "validate/checkpoint/checkpoint_checks.hpp"
#include "validate/eval/eval_checks.hpp"
#include "validate/failures/failure_checks.hpp"
#include "validate/network/network_checks.hpp"
#include "validate/power/power_checks.hpp"
#include "validate/queueing/queueing_checks.hpp"
#include <unistd.h>

namespace acme::cli {
namespace {

struct Subject {
  std::string summary;
  /// Runs the subject with its own arguments in the given context; returns the exit code.
  std::function<int(const validate::ValidationContext&, std::vector<std::string>)> run;
};

/// The embedded default config (configs/acme.yaml), written into the work dir for runs of its own.
std::string write_default_config(const validate::ValidationContext& ctx) {
  std::string path = (std::filesystem::path(ctx.work_dir) / "acme.yaml").string();
  metrics::write_file_atomically(path, std::string(embedded_default_config()));
  return path;
}

/// `--set key=value` pairs among a subject's arguments; anything else is bad input.
std::vector<config::Override> parse_sets(const std::vector<std::string>& args) {
  std::vector<config::Override> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--set" || i + 1 >= args.size()) {
      throw ConfigError(Location{"acme-sim validate", 0, 0}, "",
                        "unexpected argument \"" + args[i] + "\"; expected --set key.path=value");
    }
    out.push_back(config::parse_override(args[++i]));
  }
  return out;
}

/// The config `validate power` runs: its argument, else the embedded default written into the work dir.
std::string config_for_power(const validate::ValidationContext& ctx, const std::vector<std::string>& args) {
  if (args.size() > 1) {
    throw ConfigError(Location{"acme-sim validate power", 0, 0}, "",
                      "expected at most one CONFIG, got " + std::to_string(args.size()) + " arguments");
  }
  if (!args.empty()) {
    if (!std::filesystem::is_regular_file(args[0])) {
      throw ConfigError(Location{args[0], 0, 0}, "", "cannot read; expected a config file");
    }
    return std::filesystem::absolute(args[0]).string();
  }
  std::string path = (std::filesystem::path(ctx.work_dir) / "acme.yaml").string();
  metrics::write_file_atomically(path, embedded_default_config());
  return path;
}

const std::map<std::string, Subject>& subjects() {
  static const std::map<std::string, Subject> table = {
      {"checkpoint",
       {"checkpoint/recovery model vs closed forms (expected wall time, Young/Daly intervals, optimum) and the "
        "paper's async-checkpoint ratios",
        [](const validate::ValidationContext& ctx, std::vector<std::string>) {
          return validate::check_checkpoint(ctx);
        }}},
      {"eval",
       {"evaluation trials vs the paper: HumanEval profile, coupled/decoupled makespan ratios on 1 and 4 nodes, "
        "per-trial model-load throughput",
        [](const validate::ValidationContext& ctx, std::vector<std::string>) { return validate::check_eval(ctx); }}},
      {"failures",
       {"the failure process and automatic recovery vs closed forms: a 4,096-node job's time with a fixed "
        "restart (L + L N r R), its failure count with lemon nodes, the InfiniteHBD fault trace, and Acme's "
        "failed GPU time with the default config's failures",
        [](const validate::ValidationContext& ctx, std::vector<std::string>) {
          return validate::check_failures(ctx, write_default_config(ctx));
        }}},
      {"network",
       {"the fluid network model vs closed forms (max-min shares, ring all-reduce, oversubscribed fabric), the "
        "paper's NIC use on Seren, and the default config with the model off and on (--set applies to those runs)",
        [](const validate::ValidationContext& ctx, std::vector<std::string> args) {
          return validate::check_network(ctx, write_default_config(ctx), parse_sets(args));
        }}},
      {"power",
       {"energy model vs the paper: per-GPU power CDFs of the default run (Seren, Kalos), GPU and CPU server "
        "power, a loaded server's breakdown, the idle-cluster closed form  [CONFIG, default: the embedded "
        "configs/acme.yaml]",
        [](const validate::ValidationContext& ctx, std::vector<std::string> args) {
          return validate::check_power(ctx, config_for_power(ctx, args));
        }}},
      {"queueing",
       {"queueing delay vs the paper: per-type CDFs (KS), Table 2 means and medians, evaluation waits longest "
        "[CONFIG]",
        [](const validate::ValidationContext& ctx, std::vector<std::string> args) {
          std::string config = args.empty() ? ctx.work_dir + "/acme.yaml" : args[0];
          if (args.empty()) {
            metrics::write_file_atomically(config, embedded_default_config());
          }
          return validate::check_queueing(ctx, config);
        }}},
      {"workload",
       {"the synthetic Acme workload vs the paper: duration and GPU-count CDFs, type and state shares, Table 2",
        [](const validate::ValidationContext&, std::vector<std::string> args) {
          return cmd_validate_workload(std::move(args));
        }}},
  };
  return table;
}

void print_help() {
  std::printf("usage: acme-sim validate [SUBJECT] [options]\n\nWithout SUBJECT, every subject in turn.\n\nsubjects:\n");
  for (const auto& [name, subject] : subjects()) {
    std::printf("  %-12s %s\n", name.c_str(), subject.summary.c_str());
  }
  std::printf("\noptions:\n  --work-dir DIR   keep the runs' files in DIR (default: a temporary folder, removed)\n"
              "Exit code 0 when every check passes, 1 otherwise.\n");
}

std::string self_exe() {
  std::error_code ec;
  auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("acme-sim") : path.string();
}

const Subject& find_subject(const std::string& name) {
  auto it = subjects().find(name);
  if (it == subjects().end()) {
    std::vector<std::string> names;
    for (const auto& [known, subject] : subjects()) {
      names.push_back(known);
    }
    throw ConfigError(Location{"acme-sim validate", 0, 0}, "",
                      "unknown subject \"" + name + "\"; expected one of: " + join(names));
  }
  return it->second;
}

/// Runs `subject` with its own arguments in a work folder of its own (kept under --work-dir DIR).
int run_subject(const std::string& name, const Subject& subject, std::vector<std::string> args, bool nested) {
  validate::ValidationContext ctx;
  ctx.self_exe = self_exe();
  std::vector<std::string> rest;
  bool keep = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--work-dir" && i + 1 < args.size()) {
      ctx.work_dir = nested ? (std::filesystem::path(args[i + 1]) / name).string() : args[i + 1];
      ++i;
      keep = true;
    } else {
      rest.push_back(args[i]);
    }
  }
  if (ctx.work_dir.empty()) {
    ctx.work_dir =
        (std::filesystem::temp_directory_path() / ("acme-validate-" + name + "-" + std::to_string(::getpid())))
            .string();
  }
  std::error_code ec;
  std::filesystem::create_directories(ctx.work_dir, ec);
  if (ec) {
    throw ConfigError(Location{"acme-sim validate", 0, 0}, "",
                      "--work-dir: cannot create \"" + ctx.work_dir + "\" (" + ec.message() +
                          "); expected a writable folder");
  }
  int rc = subject.run(ctx, std::move(rest));
  if (!keep) {
    std::filesystem::remove_all(ctx.work_dir, ec);
  }
  return rc;
}

} // namespace

int cmd_validate(std::vector<std::string> args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    print_help();
    return 0;
  }
  if (args.empty() || args[0].starts_with("-")) {
    // No subject: every subject in turn; the exit code is the worst (1: a check failed).
    int worst = 0;
    for (const auto& [name, subject] : subjects()) {
      std::printf("== validate %s\n", name.c_str());
      std::fflush(stdout);
      worst = std::max(worst, run_subject(name, subject, args, true));
    }
    return worst;
  }
  return run_subject(args[0], find_subject(args[0]), {args.begin() + 1, args.end()}, false);
}

} // namespace acme::cli
