#pragma once

#include <array>
#include <string>

#include "sim/model/name_table.hpp"
#include "workloads/synthetic/cluster_model.hpp"
#include "workloads/synthetic/quasi_uniform.hpp"
#include "workloads/synthetic/synthetic_options.hpp"

namespace acme::workloads::synthetic {

/// The quasi-random streams behind one workload type's draws (see QuasiUniform): its GPU counts, the
/// duration bin given each GPU count, per duration bin the position inside the bin, and per (GPU count,
/// duration bin) the state, so that jobs of similar GPU time end in each state in their expected shares.
/// So the generated shares of GPU counts, duration bins and states, and the GPU time they carry, stay
/// close to the fitted ones even for types with a few hundred jobs.
class TypeDraws {
public:
  TypeDraws(const TypeModel& type, std::uint64_t seed, const std::string& stream);
  const TypeModel& get_type() const { return *type_; }

  /// GPU count (its index in the type's list) and a duration for it.
  struct GpuJob {
    std::uint32_t gpus = 0;
    std::size_t gpu_index = 0;
    std::size_t bin = 0;
    double duration_s = 0.0;
  };
  GpuJob draw_job();
  /// A job of the type's gpus[gpu_index] GPUs (pretraining runs fix the count).
  GpuJob draw_job_with(std::size_t gpu_index);
  /// A uniform in (0, 1) for the state of a job drawn by draw_job*.
  double state_uniform(const GpuJob& job) { return states_[job.gpu_index * type_->bins.lo_s.size() + job.bin].next(); }

private:
  const TypeModel* type_;
  QuasiUniform gpus_;
  std::vector<QuasiUniform> bins_;      ///< per GPU count
  std::vector<QuasiUniform> positions_; ///< per duration bin
  std::vector<QuasiUniform> states_;    ///< per GPU count and duration bin
};

/// How a job ends and why.
struct StateDraw {
  model::JobState state = model::JobState::COMPLETED;
  model::FailureCategory failure = model::FailureCategory::NONE;
};
/// P(completed, cancelled, failed early, failed by infrastructure) of a GPU job (see StateModel).
std::array<double, 4> gpu_state_probabilities(const StateModel& model, std::uint32_t gpus, double duration_s);
/// The state at uniform `u`; `rng` splits early failures into script and framework errors.
StateDraw gpu_state_at(const StateModel& model, std::uint32_t gpus, double duration_s, double u, double script_share,
                       model::Rng& rng);

/// CPU jobs: duration bins and states through quasi-random streams. They end by Table 2's CPU rates,
/// whatever their length; their failures are framework or script errors.
class CpuDraws {
public:
  CpuDraws(const CpuModel& model, std::uint64_t seed, const std::string& stream);
  double draw_duration();
  StateDraw draw_state(double script_share, model::Rng& rng);

private:
  const CpuModel* model_;
  QuasiUniform bins_;
  std::vector<QuasiUniform> positions_;
  QuasiUniform states_;
};

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
