#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "policies/builtin.hpp"
#include "sim/config/config.hpp"
#include "sim/engine/platform_summary.hpp"
#include "sim/metrics/recorder.hpp"
#include "workloads/workload_source.hpp"

namespace acme::engine {

/// Progress of a run, reported now and then while it runs.
struct Progress {
  double now_s = 0.0;
  double epoch_unix_s = 0.0;
  std::uint64_t jobs_submitted = 0;
  std::uint64_t jobs_done = 0;
  double span_s = 0.0; ///< the workload's submission span when known in advance (0: unknown)
};

struct SimulationOptions {
  std::function<void(const Progress&)> on_progress; ///< called about every 2^10 instants; may throw to stop
  bool check_invariants = false;                    ///< re-verify the allocation after every instant (debug)
};

/// Counts known at the end of a run.
struct RunResult {
  double end_time_s = 0.0;
  std::uint64_t jobs_submitted = 0;
  std::uint64_t jobs_recorded = 0;
  std::uint64_t jobs_rejected = 0;
  std::uint64_t instants = 0;                                  ///< distinct simulated times processed
  std::vector<double> storage_bytes_written;                   ///< per cluster
  std::vector<double> storage_bytes_read;                      ///< per cluster
  std::vector<std::optional<std::vector<double>>> plan_hold_s; ///< per cluster: team plan holds, if it has a plan
  std::vector<metrics::FaultCounts> fault_counts;              ///< per cluster
};

/// One simulation: the platform, the clusters with their policies, the workload, the recorder.
/// SimGrid allows one per process.
class Simulation {
public:
  Simulation(const config::Config& config, const policies::PolicyRegistries& registries,
             std::unique_ptr<workloads::WorkloadSource> workload, metrics::Recorder& recorder,
             SimulationOptions options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  const PlatformSummary& platform_summary() const;
  /// Runs to the end (every job finished or rejected). Rethrows a ConfigError raised on the way
  /// (a malformed trace row); the recorder then has not committed anything.
  RunResult run();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace acme::engine
