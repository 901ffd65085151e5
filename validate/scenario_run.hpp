#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/config.hpp"

namespace acme::validate {

/// What a validation subject needs: the acme-sim binary (each simulation runs in its own process:
/// SimGrid allows one engine per process) and a scratch folder.
struct ValidationContext {
  std::string self_exe;
  std::string work_dir;
};

/// One job of a validation run, read back from its jobs.csv.
struct JobMeasure {
  double wall_s = 0.0; ///< end - first start
  double work_s = 0.0;
  double stall_s = 0.0;
  double restore_s = 0.0;
  std::uint32_t checkpoints = 0;
  std::uint32_t attempts = 0;
  std::uint32_t failures = 0;
  double comm_slowdown = 1.0; ///< run over uncontended run (the fluid network model; 1 without it)
};

/// One simulation of a scenario: its seed and the overrides applied to the scenario's config.
struct ScenarioRun {
  std::string id; ///< names its folder, runs/<id>/ under the work dir
  std::uint64_t seed = 1;
  std::vector<config::Override> overrides;
  bool jobs = true; ///< write and read back jobs.csv (false: the summary's metrics only)
};

/// What a run left: every job's measures and the summary's metrics by dotted name.
struct RunMeasures {
  std::vector<JobMeasure> jobs;
  std::map<std::string, double> metrics;
};

/// Writes the embedded validate/<name> (a scenario config) into the work dir; returns its path.
std::string write_scenario(const ValidationContext& ctx, std::string_view name);

/// The folder for one run's generated inputs (traces, catalogues), inputs/<id>/ under the work dir, created.
std::string input_dir(const ValidationContext& ctx, const std::string& id);

/// Runs `acme-sim run SCENARIO --seed N --set ...` through the study point runner into runs/<id>/ and
/// reads back its jobs.csv (unless run.jobs is false) and summary.json. Throws std::runtime_error when
/// the run fails.
RunMeasures run_scenario(const ValidationContext& ctx, const std::string& scenario_path, const ScenarioRun& run);

/// Mean wall time of the jobs (0 when there are none).
double mean_wall_s(const std::vector<JobMeasure>& jobs);

} // namespace acme::validate
