#pragma once

#include <cstdint>
#include <vector>

#include "policies/eval/eval_dispatch.hpp"
#include "policies/eval/trial_packing.hpp"
#include "policies/eval/trial_sizing.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// Assumption: a metric job (running generated code against its tests, calling a judge model,
/// n-gram scores) takes 4 cores; the default CPU pool of 32 cores per node runs 8 at once.
inline constexpr std::uint32_t DEFAULT_METRIC_CPUS = 4;

struct TrialCoordinatorParams {
  TrialSizing sizing;
  PackingParams packing;
  std::uint32_t metric_cpus = DEFAULT_METRIC_CPUS;

  static const ParamTable<TrialCoordinatorParams>& table();
};

/// `decoupled`: the paper's trial coordinator. The request's datasets are packed into trials
/// (trial_packing.hpp) and handed to GPU lanes (a lane: the GPUs one trial needs) over at most
/// `request.nodes` nodes. Each node gets one job that holds the node's lanes in use: its prologue
/// reads the model once from remote storage into host shared memory; then every lane runs its trials
/// one after another: copy the model from host memory to the GPU (PCIe), preprocess (CPU), infer (GPU),
/// and spawn one CPU job per part for its metrics, so the GPU moves on at once. The request is done
/// when the node jobs and every metric job have ended.
class TrialCoordinator final : public EvalDispatch {
public:
  explicit TrialCoordinator(TrialCoordinatorParams params) : params_(params) {}
  std::vector<model::JobSpec> dispatch(const EvalRequest& request) const override;
  std::uint32_t gpus_per_trial(const EvalRequest& request) const override {
    return params_.sizing.gpus_per_trial(request);
  }

  /// The lanes of the request, trials in run order (exposed for tests and reports).
  std::vector<std::vector<PlannedTrial>> plan_lanes(const EvalRequest& request) const;

private:
  model::JobSpec metric_job(const EvalRequest& request, const TrialPart& part) const;
  std::vector<model::TaskStep> lane_steps(const EvalRequest& request, const std::vector<PlannedTrial>& trials) const;

  TrialCoordinatorParams params_;
};

} // namespace acme::policies
