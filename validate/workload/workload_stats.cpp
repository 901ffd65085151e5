#include "validate/workload/workload_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace acme::validate {

EndState end_state(model::JobState state) {
  if (state == model::JobState::COMPLETED) {
    return EndState::COMPLETED;
  }
  return state == model::JobState::CANCELLED ? EndState::CANCELLED : EndState::FAILED;
}

std::size_t ClusterStats::grid_index(double duration_s) {
  // The first grid point 2^k with duration <= 2^k (the paper's CDF counts value <= x).
  std::size_t k = 0;
  double edge = 1.0;
  while (k < DURATION_GRID_POINTS && duration_s > edge) {
    edge *= 2.0;
    ++k;
  }
  return k;
}

void ClusterStats::add(const model::JobSpec& job) {
  auto s = static_cast<std::size_t>(end_state(job.final_state));
  if (job.is_cpu_job()) {
    ++cpu_by_grid_[grid_index(job.duration_s)];
    ++cpu_state_jobs_[s];
    cpu_durations_.push_back(job.duration_s);
    return;
  }
  double gpu_s = job.gpus * job.duration_s;
  TypeStats& t = by_type_[index(job.type)];
  ++t.jobs;
  t.gpu_s += gpu_s;
  ++t.by_grid[grid_index(job.duration_s)];
  std::size_t g = std::min<std::size_t>(job.gpus, MAX_GPUS + 1);
  ++jobs_by_gpus_[g];
  gpu_s_by_gpus_[g] += gpu_s;
  ++state_jobs_[s];
  state_gpu_s_[s] += gpu_s;
  if (job.failure == model::FailureCategory::INFRASTRUCTURE) {
    ++infra_jobs_;
    infra_gpu_s_ += gpu_s;
  }
  sum_gpus_ += job.gpus;
  gpu_durations_.push_back(job.duration_s);
}

void ClusterStats::merge(const ClusterStats& o) {
  for (std::size_t t = 0; t < by_type_.size(); ++t) {
    by_type_[t].jobs += o.by_type_[t].jobs;
    by_type_[t].gpu_s += o.by_type_[t].gpu_s;
    for (std::size_t k = 0; k < by_type_[t].by_grid.size(); ++k) {
      by_type_[t].by_grid[k] += o.by_type_[t].by_grid[k];
    }
  }
  for (std::size_t g = 0; g < jobs_by_gpus_.size(); ++g) {
    jobs_by_gpus_[g] += o.jobs_by_gpus_[g];
    gpu_s_by_gpus_[g] += o.gpu_s_by_gpus_[g];
  }
  for (std::size_t s = 0; s < END_STATES; ++s) {
    state_jobs_[s] += o.state_jobs_[s];
    state_gpu_s_[s] += o.state_gpu_s_[s];
    cpu_state_jobs_[s] += o.cpu_state_jobs_[s];
  }
  for (std::size_t k = 0; k < cpu_by_grid_.size(); ++k) {
    cpu_by_grid_[k] += o.cpu_by_grid_[k];
  }
  infra_jobs_ += o.infra_jobs_;
  infra_gpu_s_ += o.infra_gpu_s_;
  sum_gpus_ += o.sum_gpus_;
  gpu_durations_.insert(gpu_durations_.end(), o.gpu_durations_.begin(), o.gpu_durations_.end());
  cpu_durations_.insert(cpu_durations_.end(), o.cpu_durations_.begin(), o.cpu_durations_.end());
}

double ClusterStats::total_gpu_time() const {
  return std::accumulate(gpu_s_by_gpus_.begin(), gpu_s_by_gpus_.end(), 0.0);
}

std::array<double, DURATION_GRID_POINTS>
ClusterStats::cdf(const std::array<std::uint64_t, DURATION_GRID_POINTS + 1>& counts, std::uint64_t total) {
  constexpr double PERCENT = 100.0;
  std::array<double, DURATION_GRID_POINTS> out{};
  std::uint64_t seen = 0;
  for (std::size_t k = 0; k < DURATION_GRID_POINTS; ++k) {
    seen += counts[k];
    out[k] = total == 0 ? 0.0 : PERCENT * static_cast<double>(seen) / static_cast<double>(total);
  }
  return out;
}

std::array<double, DURATION_GRID_POINTS> ClusterStats::duration_cdf(model::JobType type) const {
  const TypeStats& t = by_type_[index(type)];
  return cdf(t.by_grid, t.jobs);
}

std::array<double, DURATION_GRID_POINTS> ClusterStats::duration_cdf_all() const {
  std::array<std::uint64_t, DURATION_GRID_POINTS + 1> all{};
  for (const auto& t : by_type_) {
    for (std::size_t k = 0; k < all.size(); ++k) {
      all[k] += t.by_grid[k];
    }
  }
  return cdf(all, gpu_jobs());
}

std::array<double, DURATION_GRID_POINTS> ClusterStats::cpu_duration_cdf() const {
  return cdf(cpu_by_grid_, cpu_jobs());
}

std::vector<double> ClusterStats::gpu_count_cdf(bool by_gpu_time) const {
  constexpr double PERCENT = 100.0;
  double total = by_gpu_time ? total_gpu_time() : static_cast<double>(gpu_jobs());
  std::vector<double> out(MAX_GPUS + 1, 0.0);
  double seen = 0.0;
  for (std::uint32_t g = 1; g <= MAX_GPUS; ++g) {
    seen += by_gpu_time ? gpu_s_by_gpus_[g] : static_cast<double>(jobs_by_gpus_[g]);
    out[g] = total > 0.0 ? PERCENT * seen / total : 0.0;
  }
  return out;
}

double ClusterStats::mean_duration_s() const {
  return gpu_durations_.empty() ? 0.0
                                : std::accumulate(gpu_durations_.begin(), gpu_durations_.end(), 0.0) /
                                      static_cast<double>(gpu_durations_.size());
}

double ClusterStats::mean_gpus() const {
  return gpu_durations_.empty() ? 0.0 : sum_gpus_ / static_cast<double>(gpu_durations_.size());
}

double ClusterStats::cpu_mean_duration_s() const {
  return cpu_durations_.empty() ? 0.0
                                : std::accumulate(cpu_durations_.begin(), cpu_durations_.end(), 0.0) /
                                      static_cast<double>(cpu_durations_.size());
}

double ClusterStats::median(std::vector<double> values) {
  if (values.empty()) {
    return 0.0;
  }
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (values.size() % 2 == 1) {
    return *mid;
  }
  double upper = *mid;
  double lower = *std::max_element(values.begin(), mid);
  return (lower + upper) / 2.0;
}

} // namespace acme::validate
