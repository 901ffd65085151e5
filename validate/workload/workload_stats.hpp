#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/model/job.hpp"

namespace acme::validate {

/// Grids of the paper's plots (data/README.md): durations on 2^0..2^21 s (CPU jobs 2^0..2^15),
/// GPU counts on every integer up to the largest job (1,024 GPUs).
inline constexpr std::size_t DURATION_GRID_POINTS = 22;
inline constexpr std::uint32_t MAX_GPUS = 1024;

/// The three final states the paper reports (TIMEOUT and NODE_FAIL count as failed).
enum class EndState : std::uint8_t { COMPLETED, CANCELLED, FAILED };
inline constexpr std::size_t END_STATES = 3;
EndState end_state(model::JobState state);

/// What `validate workload` measures of one cluster's generated jobs, accumulated job by job with the
/// paper's definitions: only jobs with GPUs count as GPU jobs, GPU time = GPUs x duration.
class ClusterStats {
public:
  void add(const model::JobSpec& job);
  /// Adds another sample's jobs (pooling replicas of a generated workload).
  void merge(const ClusterStats& other);

  // GPU jobs
  std::uint64_t gpu_jobs() const { return gpu_durations_.size(); }
  std::uint64_t count(model::JobType type) const { return by_type_[index(type)].jobs; }
  double gpu_time(model::JobType type) const { return by_type_[index(type)].gpu_s; }
  double total_gpu_time() const;
  /// CDF (percent) of the type's durations at 2^k s, k = 0..21.
  std::array<double, DURATION_GRID_POINTS> duration_cdf(model::JobType type) const;
  std::array<double, DURATION_GRID_POINTS> duration_cdf_all() const;
  /// CDF (percent) of GPU jobs (or of GPU time) over GPUs requested, at 1..MAX_GPUS.
  std::vector<double> gpu_count_cdf(bool by_gpu_time) const;
  std::uint64_t state_count(EndState s) const { return state_jobs_[static_cast<std::size_t>(s)]; }
  double state_gpu_time(EndState s) const { return state_gpu_s_[static_cast<std::size_t>(s)]; }
  std::uint64_t infra_failures() const { return infra_jobs_; }
  double infra_failure_gpu_time() const { return infra_gpu_s_; }
  double mean_duration_s() const;
  double median_duration_s() const { return median(gpu_durations_); }
  double mean_gpus() const;

  // CPU jobs
  std::uint64_t cpu_jobs() const { return cpu_durations_.size(); }
  std::array<double, DURATION_GRID_POINTS> cpu_duration_cdf() const;
  double cpu_mean_duration_s() const;
  double cpu_median_duration_s() const { return median(cpu_durations_); }
  std::uint64_t cpu_state_count(EndState s) const { return cpu_state_jobs_[static_cast<std::size_t>(s)]; }

private:
  struct TypeStats {
    std::uint64_t jobs = 0;
    double gpu_s = 0.0;
    std::array<std::uint64_t, DURATION_GRID_POINTS + 1> by_grid{}; ///< jobs first counted at 2^k (last: beyond)
  };
  static std::size_t index(model::JobType type) { return static_cast<std::size_t>(type); }
  static std::size_t grid_index(double duration_s);
  static double median(std::vector<double> values);
  static std::array<double, DURATION_GRID_POINTS> cdf(const std::array<std::uint64_t, DURATION_GRID_POINTS + 1>& counts,
                                                      std::uint64_t total);

  std::array<TypeStats, model::JOB_TYPE_COUNT> by_type_{};
  std::vector<std::uint64_t> jobs_by_gpus_ = std::vector<std::uint64_t>(MAX_GPUS + 2, 0);
  std::vector<double> gpu_s_by_gpus_ = std::vector<double>(MAX_GPUS + 2, 0.0);
  std::array<std::uint64_t, END_STATES> state_jobs_{};
  std::array<double, END_STATES> state_gpu_s_{};
  std::uint64_t infra_jobs_ = 0;
  double infra_gpu_s_ = 0.0;
  double sum_gpus_ = 0.0;
  std::vector<double> gpu_durations_;
  std::array<std::uint64_t, DURATION_GRID_POINTS + 1> cpu_by_grid_{};
  std::array<std::uint64_t, END_STATES> cpu_state_jobs_{};
  std::vector<double> cpu_durations_;
};

} // namespace acme::validate
