#pragma once

#include <vector>

#include "policies/eval/eval_dispatch.hpp"
#include "policies/eval/trial_sizing.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

struct CoupledParams {
  TrialSizing sizing;

  static const ParamTable<CoupledParams>& table();
};

/// `coupled`: today's practice. Each dataset is one trial and each trial one GPU job (a larger model:
/// as many GPUs as its weights need) that does all four phases while holding its GPUs: read the model
/// from remote storage through its node's NIC (contended with the other trials on the node), preprocess
/// (CPU), infer (GPU) and compute the metrics (GPU idle). Jobs are submitted in the request's dataset
/// order.
class CoupledDispatch final : public EvalDispatch {
public:
  explicit CoupledDispatch(CoupledParams params) : params_(params) {}
  std::vector<model::JobSpec> dispatch(const EvalRequest& request) const override;
  std::uint32_t gpus_per_trial(const EvalRequest& request) const override {
    return params_.sizing.gpus_per_trial(request);
  }

private:
  CoupledParams params_;
};

} // namespace acme::policies
