#include "acme/workloads/synthetic/job_draws.hpp"

#include "acme/model/assert.hpp"

#include <algorithm>
#include <cmath>

namespace acme::workloads::synthetic {
namespace {

constexpr double SMALLEST_MODEL_PARAMS = 7e9; // data/README.md: pretraining of 7B-123B models
constexpr double LARGEST_MODEL_PARAMS = 123e9;
constexpr double LOGIT_CLAMP = 50.0;          // keeps exp() finite for extreme durations

double odds(double a, double b, double ln_d) { return std::exp(std::clamp(a + b * ln_d, -LOGIT_CLAMP, LOGIT_CLAMP)); }

model::FailureCategory early_failure(double script_share, model::Rng& rng) {
  return rng.bernoulli(script_share) ? model::FailureCategory::SCRIPT : model::FailureCategory::FRAMEWORK;
}

} // namespace

GpuDraw draw_gpu_job(const TypeModel& type, model::Rng& rng) {
  GpuDraw d;
  d.gpu_index = type.gpu_dist.draw(rng);
  d.gpus = type.gpus[d.gpu_index];
  d.duration_s = draw_duration(type, d.gpu_index, rng);
  return d;
}

double draw_duration(const TypeModel& type, std::size_t gpu_index, model::Rng& rng) {
  std::size_t bin = type.bins_given_gpus[gpu_index].draw(rng);
  return type.bins.draw_in(bin, rng);
}

std::array<double, 4> gpu_state_probabilities(const StateModel& m, std::uint32_t gpus, double duration_s) {
  double infra = 1.0 - std::exp(-m.infra_base - m.infra_hazard_per_gpu_s * gpus * duration_s);
  double ln_d = std::log(std::max(duration_s, 1.0));
  double cancel = odds(m.cancel_a, m.cancel_b, ln_d);
  double fail = odds(m.fail_a, m.fail_b, ln_d);
  double rest = (1.0 - infra) / (1.0 + cancel + fail);
  return {rest, rest * cancel, rest * fail, infra};
}

StateDraw draw_gpu_state(const StateModel& m, std::uint32_t gpus, double duration_s, double script_share,
                         model::Rng& rng) {
  auto p = gpu_state_probabilities(m, gpus, duration_s);
  double u = rng.uniform();
  if (u < p[0]) {
    return {};
  }
  if (u < p[0] + p[1]) {
    return {model::JobState::CANCELLED, model::FailureCategory::NONE};
  }
  if (u < p[0] + p[1] + p[2]) {
    return {model::JobState::FAILED, early_failure(script_share, rng)};
  }
  return {model::JobState::FAILED, model::FailureCategory::INFRASTRUCTURE};
}

StateDraw draw_cpu_state(const CpuModel& m, double script_share, model::Rng& rng) {
  double u = rng.uniform();
  if (u < m.completed) {
    return {};
  }
  if (u < m.completed + m.cancelled) {
    return {model::JobState::CANCELLED, model::FailureCategory::NONE};
  }
  return {model::JobState::FAILED, early_failure(script_share, rng)};
}

double model_params_for_gpus(std::uint32_t gpus, const TypeModel& pretrain) {
  auto [lo, hi] = std::minmax_element(pretrain.gpus.begin(), pretrain.gpus.end());
  if (*hi == *lo) {
    return SMALLEST_MODEL_PARAMS;
  }
  double f = std::clamp(std::log(static_cast<double>(gpus) / *lo) / std::log(static_cast<double>(*hi) / *lo), 0.0, 1.0);
  return SMALLEST_MODEL_PARAMS * std::pow(LARGEST_MODEL_PARAMS / SMALLEST_MODEL_PARAMS, f);
}

std::uint32_t draw_poisson(double mean, model::Rng& rng) {
  double limit = std::exp(-mean);
  double product = rng.uniform_open0();
  std::uint32_t k = 0;
  while (product > limit) {
    product *= rng.uniform_open0();
    ++k;
  }
  return k;
}

UserPool::UserPool(const std::string& cluster, std::uint32_t count, model::NameTable& names) {
  ACME_ASSERT(count > 0, "a cluster has users");
  std::vector<double> zipf;
  for (std::uint32_t k = 1; k <= count; ++k) {
    ids_.push_back(names.intern(cluster + "_u" + std::to_string(k)));
    zipf.push_back(1.0 / k);
  }
  weights_ = DiscreteDistribution(zipf);
}

model::UserId UserPool::draw(model::Rng& rng) const { return ids_[weights_.draw(rng)]; }

model::JobSpec make_job(const ClusterPlan& plan, model::JobType type, std::uint32_t gpus, double submit_s,
                        double duration_s, const StateDraw& end, model::UserId user) {
  model::JobSpec job;
  job.cluster = plan.id;
  job.user = user;
  job.type = type;
  job.final_state = end.state;
  job.failure = end.failure;
  job.gpus = gpus;
  job.nodes = gpus == 0 ? 0 : model::nodes_needed(gpus, std::max(plan.gpus_per_node, 1u));
  job.cpus = gpus == 0 ? plan.cpu_job_cores : gpus * plan.cpus_per_gpu;
  job.submit_time_s = submit_s;
  job.duration_s = duration_s;
  return job;
}

} // namespace acme::workloads::synthetic
