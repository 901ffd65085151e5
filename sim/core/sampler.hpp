#pragma once

#include <functional>
#include <vector>

#include "sim/core/power_meter.hpp"
#include "sim/metrics/job_record.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/error.hpp"

namespace acme::core {

/// The time series: each cluster's state over each output interval (metrics::ClusterSample).
class Sampler {
public:
  using Emit = std::function<void(const metrics::ClusterSample& sample)>;
  /// Adds what else is known of cluster `c` at the sample's time (the network model's NIC use).
  using Probe = std::function<void(std::size_t c, metrics::ClusterSample& sample)>;

  /// Samples `views` (cluster c is views[c]) every `interval_s` from time 0; `probe` adds the network
  /// model's figures, `power` each cluster's mean power (none: 0). A run whose time series would pass
  /// limits::MAX_TIMESERIES_ROWS rows stops with a ConfigError at `interval_where` (the config's
  /// `output.timeseries_interval`).
  Sampler(double interval_s, std::vector<const model::ClusterView*> views, Emit emit, Probe probe = {},
          const PowerMeter* power = nullptr, Location interval_where = {});

  /// Emits the samples of the intervals ending before `time_s`, and at `time_s` when `inclusive`
  /// (the end of the run, which also emits the last, partial interval). The views must be as of
  /// their own now_s(); their state is taken as constant from then to each sample's time.
  void sample_until(double time_s, bool inclusive);

private:
  void emit_at(double at_s);
  void count_rows(double at_s);

  double interval_s_;
  double next_sample_s_;
  double last_sample_s_ = 0.0;
  std::vector<const model::ClusterView*> views_;
  std::vector<double> busy_at_last_sample_;   ///< per cluster: allocated GPU-seconds at the last sample
  std::vector<double> energy_at_last_sample_; ///< per cluster: joules at the last sample
  Emit emit_;
  Probe probe_;
  const PowerMeter* power_;
  Location interval_where_;
  std::uint64_t rows_ = 0;
};

} // namespace acme::core
