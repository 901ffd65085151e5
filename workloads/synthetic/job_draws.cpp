#include "workloads/synthetic/job_draws.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/assert.hpp"

namespace acme::workloads::synthetic {
namespace {

constexpr double SMALLEST_MODEL_PARAMS = 7e9; // data/README.md: pretraining of 7B-123B models
constexpr double LARGEST_MODEL_PARAMS = 123e9;
constexpr double LOGIT_CLAMP = 50.0; // keeps exp() finite for extreme durations

double odds(double a, double b, double ln_d) {
  return std::exp(std::clamp(a + b * ln_d, -LOGIT_CLAMP, LOGIT_CLAMP));
}

model::FailureCategory early_failure(double script_share, model::Rng& rng) {
  return rng.bernoulli(script_share) ? model::FailureCategory::SCRIPT : model::FailureCategory::FRAMEWORK;
}

} // namespace

TypeDraws::TypeDraws(const TypeModel& type, std::uint64_t seed, const std::string& stream)
    : type_(&type)
    , gpus_(seed, stream + "/gpus") {
  for (std::uint32_t g : type.gpus) {
    bins_.emplace_back(seed, stream + "/bins/" + std::to_string(g));
  }
  for (std::size_t k = 0; k < type.bins.lo_s.size(); ++k) {
    positions_.emplace_back(seed, stream + "/position/" + std::to_string(k));
  }
  for (std::uint32_t g : type.gpus) {
    for (std::size_t k = 0; k < type.bins.lo_s.size(); ++k) {
      states_.emplace_back(seed, stream + "/state/" + std::to_string(g) + "/" + std::to_string(k));
    }
  }
}

TypeDraws::GpuJob TypeDraws::draw_job() {
  return draw_job_with(type_->gpu_dist.pick(gpus_.next()));
}

TypeDraws::GpuJob TypeDraws::draw_job_with(std::size_t gpu_index) {
  GpuJob job;
  job.gpu_index = gpu_index;
  job.gpus = type_->gpus[gpu_index];
  job.bin = type_->bins_given_gpus[gpu_index].pick(bins_[gpu_index].next());
  job.duration_s = type_->bins.at(job.bin, positions_[job.bin].next());
  return job;
}

std::array<double, 4> gpu_state_probabilities(const StateModel& m, std::uint32_t gpus, double duration_s) {
  double infra = 1.0 - std::exp(-m.infra_base - m.infra_hazard_per_gpu_s * gpus * duration_s);
  double ln_d = std::log(std::max(duration_s, 1.0));
  double cancel = odds(m.cancel_a, m.cancel_b, ln_d);
  double fail = odds(m.fail_a, m.fail_b, ln_d);
  double rest = (1.0 - infra) / (1.0 + cancel + fail);
  return {rest, rest * cancel, rest * fail, infra};
}

StateDraw gpu_state_at(const StateModel& m, std::uint32_t gpus, double duration_s, double u, double script_share,
                       model::Rng& rng) {
  auto p = gpu_state_probabilities(m, gpus, duration_s);
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

CpuDraws::CpuDraws(const CpuModel& model, std::uint64_t seed, const std::string& stream)
    : model_(&model)
    , bins_(seed, stream + "/bins")
    , states_(seed, stream + "/state") {
  for (std::size_t k = 0; k < model.bins.lo_s.size(); ++k) {
    positions_.emplace_back(seed, stream + "/position/" + std::to_string(k));
  }
}

double CpuDraws::draw_duration() {
  std::size_t bin = model_->bin_dist.pick(bins_.next());
  return model_->bins.at(bin, positions_[bin].next());
}

StateDraw CpuDraws::draw_state(double script_share, model::Rng& rng) {
  double u = states_.next();
  if (u < model_->completed) {
    return {};
  }
  if (u < model_->completed + model_->cancelled) {
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
  // Clamped: pow() can land a few ulps above the largest size at f = 1.
  return std::min(LARGEST_MODEL_PARAMS,
                  SMALLEST_MODEL_PARAMS * std::pow(LARGEST_MODEL_PARAMS / SMALLEST_MODEL_PARAMS, f));
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

model::UserId UserPool::draw(model::Rng& rng) const {
  return ids_[weights_.draw(rng)];
}

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
