// `acme-sim config show` (the resolved config) and `acme-sim rerun` (a run repeated from its folder).
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "policies/python/register_python.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/run_command.hpp"
#include "sim/cli/run_guard.hpp"
#include "sim/config/node.hpp"
#include "sim/config/provenance.hpp"
#include "sim/model/error.hpp"
#include "sim/run/config_defaults.hpp"

namespace acme::cli {
namespace {

namespace fs = std::filesystem;

const char* const CONFIG_HELP = R"(usage: acme-sim config show [CONFIG] [--set key.path=value ...] [--seed N]

Prints the config a run would use (default: the embedded configs/acme.yaml): the file after its
overrides, with the seed always stated and a header naming the source, the overrides and the folder
its relative paths resolve from. Every run writes the same text as config.resolved.yaml.
)";

const char* const RERUN_HELP = R"(usage: acme-sim rerun RUN_DIR [-o DIR] [--quiet]

Repeats a run from its folder alone: RUN_DIR/config.resolved.yaml is the config, RUN_DIR/summary.json
names every input file with its content hash. Refuses (exit 2, naming the file) when an input is gone
or changed since the run. Writes into DIR (default: RUN_DIR.rerun), then compares the outputs with
RUN_DIR's: exit 0 when every one is identical, 1 when one differs.

options:
  -o, --output DIR   output folder (created if missing; never RUN_DIR itself)
  --quiet            no progress line and no summary on the terminal
)";

/// The inputs RUN_DIR/summary.json recorded, by key (the config's own text left out: it is the resolved one now).
std::map<std::string, std::string> recorded_inputs(const std::string& summary_path) {
  config::Node summary = config::load_json_text(
      config::read_input_file(summary_path, "the summary.json of a run written by acme-sim 0.1.0 or later"),
      summary_path);
  config::Node inputs = summary["provenance"]["inputs"];
  if (!inputs.is_defined()) {
    summary.fail("no \"provenance.inputs\"; expected the summary.json of a run that records its inputs");
  }
  std::map<std::string, std::string> out;
  for (const std::string& key : inputs.keys()) {
    if (key != "config") {
      out[key] = inputs[key]["hash"].as_string();
    }
  }
  return out;
}

/// Throws a located error when an input the run read is gone or changed.
void check_inputs(const config::Config& cfg, const std::string& summary_path) {
  std::map<std::string, config::InputFile> now;
  for (auto& in : config::input_files(cfg)) {
    now[in.key] = in;
  }
  for (const auto& [key, hash] : recorded_inputs(summary_path)) {
    auto it = now.find(key);
    if (it == now.end() || it->second.hash != hash) {
      std::string what = it == now.end() ? "is gone"
                                         : "changed since the run (content hash " + hash + " then, " + it->second.hash +
                                               " now: " + it->second.path + ")";
      throw ConfigError(Location{summary_path, 0, 0}, "provenance.inputs." + key,
                        "the input " + what + "; expected the files the run read (run the config anew instead)");
    }
  }
}

/// Output files of RUN_DIR and OUT that differ (summary.json and config.resolved.yaml name their own paths).
std::vector<std::string> differing_outputs(const fs::path& run_dir, const fs::path& out_dir) {
  std::vector<std::string> differ;
  for (const char* name : {"jobs.csv", "events.csv", "timeseries.csv", "runs.csv", "nodes.csv"}) {
    bool a = fs::exists(run_dir / name);
    bool b = fs::exists(out_dir / name);
    if (a != b || (a && config::read_input_file((run_dir / name).string(), "an output file") !=
                            config::read_input_file((out_dir / name).string(), "an output file"))) {
      differ.push_back(name);
    }
  }
  return differ;
}

} // namespace

int cmd_config(std::vector<std::string> argv) {
  if (argv.empty() || argv[0] == "--help" || argv[0] == "-h") {
    std::fputs(CONFIG_HELP, stdout);
    return argv.empty() ? 2 : 0;
  }
  if (argv[0] != "show") {
    throw ConfigError(Location{"acme-sim config", 0, 0}, "",
                      "unknown action \"" + argv[0] + "\"; expected show (acme-sim config show [CONFIG])");
  }
  argv.erase(argv.begin());
  Args args(std::move(argv), "config show");
  std::vector<config::Override> overrides;
  for (const auto& s : args.values("--set")) {
    overrides.push_back(config::parse_override(s));
  }
  if (auto seed = args.value("--seed")) {
    overrides.push_back({"seed", std::to_string(parse_u64(args, "--seed", *seed)), Location{"--seed " + *seed, 0, 0}});
  }
  auto positionals = args.positionals(1);
  config::Config cfg = load_config_or_default(positionals.empty() ? "" : positionals[0], overrides);
  policies::PolicyRegistries registries = policies::python::make_registries_with_python();
  std::fputs(config::resolved_config_text(cfg, run::unwritten_defaults(cfg, registries)).c_str(), stdout);
  return 0;
}

int cmd_rerun(std::vector<std::string> argv) {
  for (const auto& a : argv) {
    if (a == "--help" || a == "-h") {
      std::fputs(RERUN_HELP, stdout);
      return 0;
    }
  }
  Args args(std::move(argv), "rerun");
  RunFlags flags;
  flags.quiet = args.flag("--quiet", "-q");
  auto out = args.value("--output", "-o");
  auto positionals = args.positionals(1);
  if (positionals.empty()) {
    args.fail("missing RUN_DIR; expected the folder of a run (acme-sim rerun RUN_DIR)");
  }
  fs::path run_dir = positionals[0];
  fs::path whole = fs::absolute(run_dir).lexically_normal(); // "out/" and "." name a folder, not its inside
  whole = whole.has_filename() ? whole : whole.parent_path();
  flags.out_dir = out ? *out : whole.string() + ".rerun";
  std::error_code ec;
  if (fs::equivalent(run_dir, flags.out_dir, ec)) {
    args.fail("-o " + flags.out_dir + " is RUN_DIR itself; expected another folder (the run's files stay as they are)");
  }
  std::string resolved_path = (run_dir / config::RESOLVED_CONFIG_FILE).string();
  std::string text = config::read_input_file(resolved_path, "the config.resolved.yaml of a run");
  std::string base_dir = config::resolved_base_dir(text);
  if (base_dir.empty()) {
    throw ConfigError(Location{resolved_path, 1, 1}, "base_dir",
                      "no \"# base_dir:\" header line; expected a config.resolved.yaml that acme-sim wrote");
  }
  config::Config cfg = config::load_config_text(text, resolved_path, base_dir);
  check_inputs(cfg, (run_dir / "summary.json").string());
  RunGuard guard(std::nullopt, std::nullopt);
  int code = run_loaded(cfg, flags, guard);
  if (code != 0) {
    return code;
  }
  auto differ = differing_outputs(run_dir, flags.out_dir);
  for (const auto& name : differ) {
    std::printf("rerun: %s differs from %s's\n", name.c_str(), run_dir.string().c_str());
  }
  if (differ.empty() && !flags.quiet) {
    std::printf("rerun: every output is identical to %s's\n", run_dir.string().c_str());
  }
  return differ.empty() ? 0 : 1;
}

} // namespace acme::cli
