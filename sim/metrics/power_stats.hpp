#pragma once

#include <string>
#include <vector>

#include "sim/metrics/job_record.hpp"
#include "sim/metrics/power_report.hpp"

namespace acme::metrics {

/// Energy figures per cluster: the engine's power report (energy by part, peak, time-weighted draws of
/// GPUs and servers) with what the jobs' records add (energy charged to jobs, stalls, rollbacks, useful
/// GPU time).
class PowerStats {
public:
  explicit PowerStats(std::size_t clusters);

  void add(const JobRecord& record);
  /// The engine's report, one per cluster (absent: the power block is left out).
  void set_reports(std::vector<ClusterPowerReport> reports) { reports_ = std::move(reports); }
  bool has_reports() const { return !reports_.empty(); }
  /// The "power" member of cluster `c` in summary.json (no braces around).
  std::string render_cluster(std::size_t c) const;

private:
  struct Totals {
    double jobs_J = 0.0;
    double stall_J = 0.0;
    double rollback_J = 0.0;
    double useful_gpu_s = 0.0; ///< work kept (not rolled back) x GPUs
  };
  std::vector<Totals> totals_;
  std::vector<ClusterPowerReport> reports_;
};

} // namespace acme::metrics
