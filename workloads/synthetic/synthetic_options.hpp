#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"
#include "workloads/synthetic/arrival_process.hpp"

namespace acme::workloads::synthetic {

/// One config cluster that receives a generated workload.
struct ClusterPlan {
  model::ClusterId id{};
  std::string name;                ///< the config's cluster name
  std::string preset;              ///< the paper's cluster whose workload it gets: "seren" or "kalos"
  double utc_offset_s = 0.0;       ///< local time of the rhythm
  std::uint32_t gpus_per_node = 0; ///< multi-node jobs request whole nodes
  std::uint32_t cpus_per_gpu = 0;  ///< CPU cores a GPU job requests per GPU
  std::uint32_t cpu_job_cores = 0; ///< CPU cores a CPU job requests
  std::uint32_t team_gpus = 0;     ///< the pretraining team's planned GPUs (0: runs arrive unplanned)
};

/// The `workload:` section with `kind: synthetic` (see configs/acme.yaml for every key).
struct SyntheticOptions {
  std::string preset;        ///< acme | seren | kalos
  double days = 0.0;         ///< length of the generated period
  double scale = 1.0;        ///< multiplies every arrival rate
  std::uint64_t seed = 0;    ///< default: the run seed
  double start_unix_s = 0.0; ///< first instant of the period; the run's epoch
  RhythmOptions rhythm;
  double eval_batch_size = 0.0; ///< mean evaluation jobs per model checkpoint
  /// Per job type, mean jobs per sweep: a user submits 1 + Poisson(mean - 1) jobs of the type in one
  /// second (a hyperparameter or dataset sweep); 1: one job at a time. Pretraining and evaluation keep 1.
  std::array<double, model::JOB_TYPE_COUNT> sweep_size{1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
  double resubmit_delay_s = 0.0;     ///< from a pretraining attempt's end to the next attempt's submission
  std::uint32_t users = 0;           ///< users per cluster
  double script_failure_share = 0.0; ///< share of early failures that are script (not framework) errors
  /// Whether the drawn final states include infrastructure failures (StateModel's infra terms). False when
  /// the run's failure process strikes jobs itself (`failures:` on): the drawn states then keep the script
  /// and framework failures only, so that no infrastructure failure is counted twice.
  bool draws_infra_failures = true;
  std::vector<ClusterPlan> clusters; ///< in config order

  double end_unix_s() const;
};

/// Validates the section (every key known, values in range, clusters present). Throws ConfigError.
SyntheticOptions parse_synthetic_options(const config::Config& cfg, const config::Node& section);

} // namespace acme::workloads::synthetic
