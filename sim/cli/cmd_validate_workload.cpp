// `acme-sim validate workload [CONFIG]`: the synthetic workload generator against the paper's data.
// Parses the arguments and loads the config; the checks are validate/workload/.
#include <cstdio>
#include <filesystem>

#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/run_command.hpp"
#include "validate/workload/workload_checks.hpp"

namespace acme::cli {
namespace {

const char* const HELP =
    R"(usage: acme-sim validate workload [CONFIG] [--replicas N] [--set key.path=value ...] [--seed N]

Generates the synthetic workload of CONFIG (default: the embedded configs/acme.yaml; its `workload:`
section must have kind: synthetic) and prints, per cluster, the generated value next to the paper's
(data/acme, compiled in). A few of the longest pretraining attempts hold much of a cluster's GPU time
(Kalos: about ten jobs hold 40%), so one run's GPU-time-weighted shares swing by several points from
seed to seed. The checks therefore pool replicas of the workload (the seed, seed+1, ...): by default as
many as bring a cluster to 20,000 pretraining jobs (Seren 4, Kalos 32); the column "one run" shows the
range over single runs. Checks, against the paper:
  KS distance of each duration CDF (per type, all GPU jobs, CPU jobs; on 2^0..2^21 s) and of the
  GPU-count CDFs (jobs and GPU time; on every integer)           tolerance KS <= 0.05
  shares of GPU jobs and of GPU time by type and by final state  1.5 points by count, 3 by GPU time
  Table 2 mean and median run time, mean GPU demand               medians 15%, means 25%
Seren: Table 2 describes all 663,813 GPU jobs, but the CDFs, type shares and box plots describe the
released trace (450,590 jobs). The generator draws every job from the released-trace curves, so the
`curves` column shows what those curves imply for Table 2's statistics; the check is against Table 2.
  --replicas N   runs pooled per cluster (default: as above)
Exit code 0 when every check passes, 1 otherwise, 2 on bad input.
)";

struct Options {
  std::string config_path;
  std::vector<config::Override> overrides;
  std::uint64_t replicas = 0; ///< 0: by the pretraining jobs pooled (validate/workload/workload_checks.hpp)
};

Options parse_args(std::vector<std::string> argv) {
  Args args(std::move(argv), "validate workload");
  Options o;
  for (const auto& s : args.values("--set")) {
    o.overrides.push_back(config::parse_override(s));
  }
  if (auto seed = args.value("--seed")) {
    o.overrides.push_back({"seed", std::to_string(parse_u64(args, "--seed", *seed))});
  }
  if (auto replicas = args.value("--replicas")) {
    o.replicas = parse_u64(args, "--replicas", *replicas);
    if (o.replicas == 0) {
      args.fail("--replicas 0: expected at least one run");
    }
  }
  auto positionals = args.positionals(1);
  if (!positionals.empty()) {
    o.config_path = positionals[0];
  }
  return o;
}

} // namespace

int cmd_validate_workload(std::vector<std::string> args) {
  if (printed_help(args, HELP)) {
    return 0;
  }
  Options o = parse_args(std::move(args));
  config::Config cfg = load_config_or_default(o.config_path, o.overrides);
  return validate::check_workload(cfg, o.replicas);
}

} // namespace acme::cli
