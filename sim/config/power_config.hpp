#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/config/node.hpp"
#include "sim/model/job.hpp"
#include "sim/model/rng.hpp"

namespace acme::config {

/// A distribution of power draws given by its quantiles at equal steps of probability (the first is
/// the minimum, the last the maximum): a sample interpolates linearly between them. One value: fixed.
struct PowerQuantiles {
  std::vector<double> W;

  double sample(model::Rng& rng) const;
  double mean() const;
};

/// What one GPU draws in each state besides computing; an idle GPU (free, starting, waiting on CPU
/// work, computing metrics) draws its node's idle power (the cluster's gpu.idle_power, spread over
/// the nodes by idle_spread).
struct GpuStatePower {
  double idle_spread_W = 0.0; ///< node-to-node range of the idle draw, centred on gpu.idle_power
  double checkpoint_W = 0.0;  ///< stalled for a checkpoint (copy to host or storage write)
  double restore_W = 0.0;     ///< reading a checkpoint back
  double model_load_W = 0.0;  ///< evaluation: model load and host-to-device copy
  std::array<PowerQuantiles, model::JOB_TYPE_COUNT> busy; ///< computing, per job type (drawn per job)
};

/// The part of a GPU server that is not its GPUs (DC draws; the supplies lose 1 - psu_efficiency of the
/// whole server at the wall): it rises with the node's GPU load (its GPUs' draw above idle over
/// their range up to gpu.max_power). A powered-off server draws `off_W` and its GPUs nothing.
struct NodeBasePower {
  double cpu_idle_W = 0.0;
  double cpu_busy_W = 0.0;
  double other_idle_W = 0.0; ///< memory, NICs, NVSwitches, fans, disks
  double other_busy_W = 0.0;
  double psu_efficiency = 1.0; ///< DC power / wall power
  double off_W = 0.0;          ///< a powered-off node (standby: BMC, supplies)
};

/// The servers of a cluster's CPU pool (the cores that serve CPU-only jobs): as many as the pool
/// needs at `cores` each; their draw rises with the pool's use.
struct CpuServerPower {
  std::uint32_t cores = 1;
  double idle_W = 0.0;
  double busy_W = 0.0;

  /// Servers of `cores` cores that hold a CPU pool of `pool_cores` (the last one may be partly used).
  std::uint32_t servers_for(std::uint32_t pool_cores) const { return (pool_cores + cores - 1) / cores; }
};

/// `power:` — what the hardware draws. Used for energy accounting; it never changes a job's timing.
struct PowerConfig {
  GpuStatePower gpu;
  NodeBasePower node;
  CpuServerPower cpu_server;
  double switch_W = 0.0;  ///< per leaf and spine switch
  double storage_W = 0.0; ///< per cluster: its storage system
};

/// Parses `power:` of `root` (optional: every key has a documented default).
PowerConfig parse_power_config(const Node& root);

} // namespace acme::config
