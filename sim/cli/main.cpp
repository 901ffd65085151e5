#include <spdlog/logger.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/log/log.hpp"
#include "sim/model/assert.hpp"
#include "sim/model/error.hpp"

namespace {

constexpr int EXIT_BAD_INPUT = 2;
constexpr int EXIT_INTERNAL = 3;

const char* const USAGE = R"(acme-sim: a discrete-event simulator of LLM-development GPU datacenters (Acme, NSDI'24)

usage: acme-sim <command> [options]

commands:
  run [CONFIG]   simulate a datacenter (default: the embedded configs/acme.yaml)
  list           registered policies and parameter-table config sections, with their defaults
  gen [CONFIG]   write the config's workload (e.g. the synthetic Acme workload) as AcmeTrace files
  sweep STUDY    run a what-if study (grid x zip x seeds) in parallel, resumable, shardable
  merge DIR...   combine the folders of a sharded sweep into one study folder
  check RUN      compare a run's queueing delay, JCT and utilisation with a baseline
  report DIR     one self-contained HTML page (tables, SVG plots) of a run or a study
  export RUN     a run's jobs as AcmeTrace job traces (trace_seren.csv, trace_kalos.csv)
  validate SUBJ  fidelity checks against closed forms and the paper (see acme-sim validate --help)
  config show    print the config a run would use, after its overrides (default: the embedded one)
  rerun RUN_DIR  repeat a run from its folder (config.resolved.yaml), refusing when an input changed

  --version      the version and the git commit it was built from ("+changes": with local edits)

global options (any command):
  --log SPEC     log to stderr: LEVEL for every category or CATEGORY=LEVEL, comma-separated, repeatable;
                 levels trace, debug, info, warn, error, off; categories cli, config, engine, metrics,
                 policy, study, workload; default warn. ACME_LOG=SPEC does the same (--log wins).

Run `acme-sim <command> --help` for a command's options.
Exit codes: 0 ok, 1 check failed (check, validate, a failed sweep point), 2 bad input (config, trace,
command line, an output folder that cannot be written; one located line on stderr), 3 an internal error
(a bug in acme-sim: please report it with the command line).
)";

int dispatch(const std::string& command, std::vector<std::string> rest) {
  if (command == "run") {
    return acme::cli::cmd_run(std::move(rest));
  }
  if (command == "list") {
    return acme::cli::cmd_list(std::move(rest));
  }
  if (command == "gen") {
    return acme::cli::cmd_gen(std::move(rest));
  }
  if (command == "sweep") {
    return acme::cli::cmd_sweep(std::move(rest));
  }
  if (command == "merge") {
    return acme::cli::cmd_merge(std::move(rest));
  }
  if (command == "check") {
    return acme::cli::cmd_check(std::move(rest));
  }
  if (command == "report") {
    return acme::cli::cmd_report(std::move(rest));
  }
  if (command == "export") {
    return acme::cli::cmd_export(std::move(rest));
  }
  if (command == "config") {
    return acme::cli::cmd_config(std::move(rest));
  }
  if (command == "rerun") {
    return acme::cli::cmd_rerun(std::move(rest));
  }
  if (command == "validate") {
    return acme::cli::cmd_validate(std::move(rest));
  }
  throw acme::ConfigError(
      acme::Location{"acme-sim", 0, 0}, "",
      "unknown command \"" + command +
          "\"; expected one of: run, list, gen, sweep, merge, check, report, export, validate, config, rerun "
          "(see acme-sim --help)");
}

/// Takes every `--log SPEC` / `--log=SPEC` out of `args` and sets the loggers' levels: ACME_LOG first,
/// then each --log in order (later settings win). Throws ConfigError on a bad setting.
void configure_logging(std::vector<std::string>& args) {
  acme::log::LogLevels levels;
  if (const char* env = std::getenv("ACME_LOG"); env != nullptr && *env != '\0') {
    acme::log::apply_spec(levels, env, "ACME_LOG=");
  }
  const std::string prefix = "--log=";
  std::vector<std::string> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--log") {
      if (i + 1 == args.size()) {
        throw acme::ConfigError(
            acme::Location{"acme-sim", 0, 0}, "",
            "option --log needs a value; expected LEVEL or CATEGORY=LEVEL (e.g. --log engine=debug)");
      }
      acme::log::apply_spec(levels, args[++i], "--log");
    } else if (args[i].starts_with(prefix)) {
      acme::log::apply_spec(levels, std::string_view(args[i]).substr(prefix.size()), "--log");
    } else {
      rest.push_back(std::move(args[i]));
    }
  }
  args = std::move(rest);
  acme::log::configure(levels);
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    configure_logging(args);
  } catch (const acme::ConfigError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return EXIT_BAD_INPUT;
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(USAGE, args.empty() ? stderr : stdout);
    return args.empty() ? EXIT_BAD_INPUT : 0;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::printf("%s\n", acme::cli::version_text().c_str());
    return 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  acme::log::get(acme::log::Category::CLI).debug("acme-sim {} {}", command, acme::join(args, " "));
  try {
    return dispatch(command, std::move(args));
  } catch (const acme::ConfigError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return EXIT_BAD_INPUT;
  } catch (const acme::InternalError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return EXIT_INTERNAL;
  } catch (const std::filesystem::filesystem_error& e) {
    // The machine refused a file operation (a full disk, a file where a folder is expected): the input
    // (a path on the command line or in a config) cannot be used as given.
    std::string path = e.path1().empty() ? "acme-sim " + command : e.path1().string();
    std::fprintf(stderr, "%s\n",
                 acme::ConfigError(acme::Location{path, 0, 0}, "",
                                   "cannot use this path (" + e.code().message() + "); expected a writable folder")
                     .what());
    return EXIT_BAD_INPUT;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "acme-sim %s: out of memory; expected a run that fits this machine (README.md, Bounds; "
                 "--max-memory stops a run cleanly)\n",
                 command.c_str());
    return EXIT_BAD_INPUT;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "acme-sim %s: error: %s\n", command.c_str(), e.what());
    return EXIT_INTERNAL;
  }
}
