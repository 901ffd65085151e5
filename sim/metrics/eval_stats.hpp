#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/metrics/job_record.hpp"

namespace acme::metrics {

struct RunInfo;

/// Evaluation figures per cluster: GPU time held by evaluation jobs and how much of it the GPUs
/// actually computed, and the feedback latency of each evaluation request (from its submission,
/// i.e. the checkpoint being written, until its last job, metrics included, has finished).
class EvalStats {
public:
  explicit EvalStats(std::size_t clusters);
  void add(const JobRecord& record);
  /// The "evaluation" member of cluster `c` in summary.json (no braces around).
  std::string render_cluster(std::size_t c) const;

private:
  struct Totals {
    std::uint64_t jobs = 0;
    double gpu_s = 0.0;
    double gpu_busy_s = 0.0;
    double planned_gpu_s = 0.0; ///< GPU time of jobs that ran a task plan (busy time is known)
  };
  struct Request {
    std::uint16_t cluster = 0;
    double first_submit_s = 0.0;
    double last_end_s = 0.0;
    std::uint32_t jobs = 0;
  };
  std::vector<Totals> totals_;
  std::map<std::uint64_t, Request> requests_;
};

} // namespace acme::metrics
