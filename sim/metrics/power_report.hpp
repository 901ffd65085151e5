#pragma once

#include <cstdint>
#include <vector>

namespace acme::metrics {

/// A time-weighted histogram of power draws: each add() puts `weight` (device-seconds) at a draw in W,
/// in bins of `bin_W`. Quantiles and the CDF interpolate within a bin; the mean is exact.
class PowerHistogram {
public:
  explicit PowerHistogram(double bin_W = 1.0) : bin_W_(bin_W) {}

  void add(double W, double weight);
  double total_weight() const { return total_; }
  double mean_W() const { return total_ > 0.0 ? weighted_W_ / total_ : 0.0; }
  /// The draw below which a share `q` (0..1) of the weight lies (0 when empty).
  double quantile_W(double q) const;
  /// Share (0..1) of the weight at draws <= W (the weight of a bin spread evenly over it).
  double cdf(double W) const;

private:
  double bin_W_;
  std::vector<double> weight_; ///< per bin [k bin_W, (k+1) bin_W)
  double total_ = 0.0;
  double weighted_W_ = 0.0;
};

/// One cluster's energy over a run (joules; network = its leaf and spine switches), its highest
/// power held for a positive time, and the time-weighted draws of its GPUs, GPU servers and CPU servers.
struct ClusterPowerReport {
  double span_s = 0.0;
  double gpu_J = 0.0;         ///< the GPUs' own draw
  double node_base_J = 0.0;   ///< the rest of the GPU servers at the wall (CPUs, memory, NICs, fans, supplies)
  double cpu_servers_J = 0.0; ///< servers of the CPU pool
  double network_J = 0.0;
  double storage_J = 0.0;
  double peak_W = 0.0;
  double node_off_s = 0.0; ///< node-seconds switched off by the power policy
  std::uint64_t boots = 0;
  PowerHistogram gpu_W{1.0};
  PowerHistogram gpu_server_W{10.0};
  PowerHistogram cpu_server_W{1.0};

  double total_J() const { return gpu_J + node_base_J + cpu_servers_J + network_J + storage_J; }
};

/// A job's energy (its GPUs and its share of its nodes' base), and the parts of it spent in
/// checkpoint stalls and on work a failure rolled back.
struct JobEnergy {
  double total_J = 0.0;
  double stall_J = 0.0;
  double rollback_J = 0.0;
};

} // namespace acme::metrics
