#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/config/node.hpp"
#include "sim/model/job.hpp"
#include "sim/model/rng.hpp"

namespace acme::config {

template <class P>
class ParamTable;

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
  // Paper: Seren's GPU servers draw a median 2,520 W, mean 2,930 W; CPUs 11.2%, supplies 9.6% of a
  // loaded server (data/README.md, "Power"). Two 64-core CPUs from idle to busy; memory, 9-10 NICs,
  // NVSwitches, fans and disks about 1 kW, fans rising with load (assumption).
  double cpu_idle_W = 220.0;     ///< assumption
  double cpu_busy_W = 580.0;     ///< paper: 11.2% of a loaded GPU server
  double other_idle_W = 980.0;   ///< memory, NICs, NVSwitches, fans, disks (assumption)
  double other_busy_W = 1020.0;  ///< assumption
  double psu_efficiency = 0.904; ///< DC power / wall power (paper: supplies 9.6% of a GPU server's power)
  double off_W = 20.0;           ///< a powered-off node (standby: BMC, supplies; assumption)

  /// Its keys (schema_power.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<NodeBasePower>& table();
};

/// The servers of a cluster's CPU pool (the cores that serve CPU-only jobs): as many as the pool
/// needs at `cores` each; their draw rises with the pool's use. Paper: CPU servers median 546 W, mean
/// 581 W (data/README.md, "Power").
struct CpuServerPower {
  std::uint32_t cores = 128; ///< assumption: as many cores as a GPU node
  double idle_W = 520.0;     ///< assumption, near the paper's median
  double busy_W = 800.0;     ///< assumption

  /// Servers of `cores` cores that hold a CPU pool of `pool_cores` (the last one may be partly used).
  std::uint32_t servers_for(std::uint32_t pool_cores) const { return (pool_cores + cores - 1) / cores; }
  /// Its keys (schema_power.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<CpuServerPower>& table();
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
