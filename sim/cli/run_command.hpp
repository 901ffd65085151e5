#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.hpp"

namespace acme::cli {

class RunGuard;

/// How `acme-sim run` (and `rerun`) runs a loaded config.
struct RunFlags {
  std::string out_dir = "out";
  bool quiet = false;
  bool check_invariants = false;
  std::optional<std::string> max_time;
  std::optional<std::string> max_memory;
};

/// The config at `path`, or the embedded configs/acme.yaml when `path` is empty (its relative paths
/// then resolve from the current directory), with `overrides` applied.
config::Config load_config_or_default(const std::string& path, const std::vector<config::Override>& overrides);

/// Runs `cfg` into flags.out_dir (committed at once when it succeeds); the exit code.
int run_loaded(const config::Config& cfg, const RunFlags& flags, RunGuard& guard);

} // namespace acme::cli
