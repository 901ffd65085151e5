#pragma once

#include <functional>
#include <vector>

#include "sim/core/power_meter.hpp"
#include "sim/metrics/job_record.hpp"
#include "sim/model/cluster_view.hpp"

namespace acme::core {

/// The time series: each cluster's state over each output interval (metrics::ClusterSample).
class Sampler {
public:
  using Emit = std::function<void(const metrics::ClusterSample& sample)>;

  /// Samples `views` (cluster c is views[c]) every `interval_s` from time 0, with each cluster's mean
  /// power from `power` (none: 0).
  Sampler(double interval_s, std::vector<const model::ClusterView*> views, Emit emit,
          const PowerMeter* power = nullptr);

  /// Emits the samples of the intervals ending before `time_s`, and at `time_s` when `inclusive`
  /// (the end of the run, which also emits the last, partial interval). The views must be as of
  /// their own now_s(); their state is taken as constant from then to each sample's time.
  void sample_until(double time_s, bool inclusive);

private:
  void emit_at(double at_s);

  double interval_s_;
  double next_sample_s_;
  double last_sample_s_ = 0.0;
  std::vector<const model::ClusterView*> views_;
  std::vector<double> busy_at_last_sample_;   ///< per cluster: allocated GPU-seconds at the last sample
  std::vector<double> energy_at_last_sample_; ///< per cluster: joules at the last sample
  Emit emit_;
  const PowerMeter* power_;
};

} // namespace acme::core
