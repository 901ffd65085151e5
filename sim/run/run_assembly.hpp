#pragma once

#include <memory>
#include <string>

#include "sim/config/config.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/metrics/recorder.hpp"
#include "workloads/workload_source.hpp"

namespace acme::run {

/// What a run needs besides its config.
struct RunSetup {
  /// Where jobs.csv, summary.json, timeseries.csv and runs.csv (and events.csv with output.events) go;
  /// created when missing. The files appear only when the run ends (written aside, then renamed).
  std::string out_dir = "out";
  engine::SimulationOptions simulation; ///< progress callback, invariant checks
  /// The jobs to run; null (the default): the workload the config's `workload:` section describes.
  std::unique_ptr<workloads::WorkloadSource> workload;
};

/// What a finished run reports.
struct RunReport {
  engine::RunResult result;
  double wall_s = 0.0; ///< wall-clock seconds of the simulation (recorded in summary.json)
};

/// One run wired as `acme-sim run` wires it: the built-in policy registries, the workload, a recorder
/// writing into the output folder and the simulation. SimGrid allows one per process.
class AssembledRun {
public:
  AssembledRun(const config::Config& config, RunSetup setup);
  ~AssembledRun();
  AssembledRun(const AssembledRun&) = delete;
  AssembledRun& operator=(const AssembledRun&) = delete;

  /// The platform as built (clusters, nodes, GPUs, leaf switches), known before the run.
  const engine::PlatformSummary& platform_summary() const;
  /// Simulates to the end and commits the output files. Call once. Rethrows a ConfigError raised on
  /// the way (a malformed trace row); no output file is visible then.
  RunReport run();

private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

/// Builds the run of `config` (which must outlive it): policies, workload, output folder, recorder,
/// simulation, in that order. Throws ConfigError on a bad config section, an unreadable trace or an
/// output folder that cannot be written.
std::unique_ptr<AssembledRun> make_run(const config::Config& config, RunSetup setup);

/// The recorder's options for `config`: one entry per cluster, the failure categories of the fault
/// config (switch last), the output switches of `output:`.
metrics::RecorderOptions recorder_options(const config::Config& config, const std::string& out_dir,
                                          double epoch_unix_s);

} // namespace acme::run
