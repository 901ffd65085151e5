#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/model/assert.hpp"
#include "sim/model/error.hpp"

namespace {

constexpr int EXIT_BAD_INPUT = 2;
constexpr int EXIT_INTERNAL = 3;

const char* const USAGE = R"(acme-sim: a discrete-event simulator of LLM-development GPU datacenters (Acme, NSDI'24)

usage: acme-sim <command> [options]

commands:
  run [CONFIG]   simulate a datacenter (default: the embedded configs/acme.yaml)
  list           registered policies with their parameters and defaults
  gen [CONFIG]   write the config's workload (e.g. the synthetic Acme workload) as AcmeTrace files
  sweep STUDY    run a what-if study (grid x zip x seeds) in parallel, resumable, shardable
  merge DIR...   combine the folders of a sharded sweep into one study folder
  check RUN      compare a run's queueing delay, JCT and utilisation with a baseline
  validate SUBJ  fidelity checks against closed forms and the paper (see acme-sim validate --help)

Run `acme-sim <command> --help` for a command's options.
Exit codes: 0 ok, 1 check failed, 2 bad input (config, trace, command line).
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
  if (command == "validate") {
    return acme::cli::cmd_validate(std::move(rest));
  }
  throw acme::ConfigError(
      acme::Location{"acme-sim", 0, 0}, "",
      "unknown command \"" + command +
          "\"; expected one of: run, list, gen, sweep, merge, check, validate (see acme-sim --help)");
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(USAGE, args.empty() ? stderr : stdout);
    return args.empty() ? EXIT_BAD_INPUT : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    return dispatch(command, std::move(args));
  } catch (const acme::ConfigError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return EXIT_BAD_INPUT;
  } catch (const acme::InternalError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return EXIT_INTERNAL;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "acme-sim %s: error: %s\n", command.c_str(), e.what());
    return EXIT_INTERNAL;
  }
}
