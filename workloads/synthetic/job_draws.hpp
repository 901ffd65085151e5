#pragma once

#include "acme/model/name_table.hpp"
#include "acme/workloads/synthetic/cluster_model.hpp"
#include "acme/workloads/synthetic/synthetic_options.hpp"

#include <array>
#include <string>

namespace acme::workloads::synthetic {

/// A GPU job's request and length, drawn from its type: GPU count, then duration bin given the count.
struct GpuDraw {
  std::uint32_t gpus = 0;
  std::size_t gpu_index = 0; ///< index of `gpus` in the type's list
  double duration_s = 0.0;
};
GpuDraw draw_gpu_job(const TypeModel& type, model::Rng& rng);
/// A duration for a job of the type's gpus[gpu_index] GPUs.
double draw_duration(const TypeModel& type, std::size_t gpu_index, model::Rng& rng);

/// How a job ends and why.
struct StateDraw {
  model::JobState state = model::JobState::COMPLETED;
  model::FailureCategory failure = model::FailureCategory::NONE;
};
/// P(completed, cancelled, failed early, failed by infrastructure) of a GPU job (see StateModel).
std::array<double, 4> gpu_state_probabilities(const StateModel& model, std::uint32_t gpus, double duration_s);
StateDraw draw_gpu_state(const StateModel& model, std::uint32_t gpus, double duration_s, double script_share,
                         model::Rng& rng);
/// CPU jobs end by Table 2's CPU rates, whatever their length; failures are framework or script errors.
StateDraw draw_cpu_state(const CpuModel& model, double script_share, model::Rng& rng);

/// Model size of a pretraining run on `gpus` GPUs: log-linear from 7e9 parameters at the type's
/// smallest GPU count to 123e9 at its largest (data/README.md: 7B-123B models).
double model_params_for_gpus(std::uint32_t gpus, const TypeModel& pretrain);

/// A Poisson draw (Knuth's product of uniforms; fine for means up to a few hundred).
std::uint32_t draw_poisson(double mean, model::Rng& rng);

/// The users of one cluster, "<cluster>_u<k>", drawn with Zipf weights 1/k (assumption: a few users
/// submit most jobs).
class UserPool {
public:
  UserPool(const std::string& cluster, std::uint32_t count, model::NameTable& names);
  model::UserId draw(model::Rng& rng) const;

private:
  std::vector<model::UserId> ids_;
  DiscreteDistribution weights_;
};

/// A job with the request fields filled in: nodes (whole nodes above one node), CPU cores.
model::JobSpec make_job(const ClusterPlan& plan, model::JobType type, std::uint32_t gpus, double submit_s,
                        double duration_s, const StateDraw& end, model::UserId user);

} // namespace acme::workloads::synthetic
