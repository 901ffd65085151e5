#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/metrics/job_record.hpp"

namespace acme::metrics {

/// Network figures per cluster under the fluid network model: how busy the compute NICs and the
/// leaf-to-spine links were over the time-series samples (the paper's measure: the share of NIC samples
/// idle and above 25% of NIC bandwidth), and the GPU time lost to communication slowdown by job type.
class NetworkStats {
public:
  explicit NetworkStats(std::size_t clusters);
  void add(const JobRecord& record);
  void add_sample(const ClusterSample& sample);
  /// The "network" member of cluster `c` in summary.json (no braces around).
  std::string render_cluster(std::size_t c);

  /// Run time over uncontended run time (1: not slowed), for a record the model ran on.
  static double comm_slowdown(const JobRecord& record);

private:
  struct Totals {
    std::uint64_t nic_samples = 0;
    std::uint64_t nics_idle = 0;
    std::uint64_t nics_above_quarter = 0;
    double nic_util_sum = 0.0; ///< of the samples' means, weighted by their NICs
    double spine_util_sum = 0.0;
    std::uint64_t samples = 0;
    std::array<double, model::JOB_TYPE_COUNT> lost_gpu_s{};
    std::vector<double> multi_node_slowdowns;
  };
  std::vector<Totals> totals_;
};

} // namespace acme::metrics
