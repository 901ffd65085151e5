#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/metrics/job_record.hpp"

namespace acme::metrics {

/// One cluster's GPU jobs counted as AcmeTrace records them (bar_job_state.csv): a job that an
/// infrastructure failure interrupted and that restarted is one FAILED row per interrupted attempt plus its
/// own row, which keeps its final state and the rest of its GPU time. Failed rows are split by cause:
/// infrastructure (by failure category; "drawn" for infrastructure failures a workload drew as final
/// states) or the job's own error (script, framework).
class TraceStates {
public:
  explicit TraceStates(std::vector<std::string> categories);

  void add(const JobRecord& record);
  /// The "trace_states" member of a cluster's fault_tolerance block (no braces around).
  std::string render() const;

private:
  /// `rows` rows of `state` holding `gpu_s` GPU-seconds between them.
  void add_rows(model::JobState state, std::uint64_t rows, double gpu_s);

  std::vector<std::string> categories_;
  std::uint64_t rows_ = 0;
  std::uint64_t cancelled_rows_ = 0;
  std::uint64_t failed_rows_ = 0;
  std::uint64_t infra_rows_ = 0;
  std::uint64_t restart_rows_ = 0; ///< failed rows cut from jobs that went on
  std::uint64_t drawn_rows_ = 0;   ///< infrastructure failures the workload drew as final states
  double gpu_s_ = 0.0;
  double cancelled_gpu_s_ = 0.0;
  double failed_gpu_s_ = 0.0;
  std::vector<double> infra_gpu_s_; ///< per category, then "drawn"
};

} // namespace acme::metrics
