#include "policies/eval/trial_sizing.hpp"

#include <algorithm>
#include <cmath>

#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {

const ParamTable<TrialSizing>& TrialSizing::table() {
  static const ParamTable<TrialSizing> t{
      number_param("bytes_per_param", &TrialSizing::bytes_per_param, "bytes of model weights per parameter (bf16)",
                   Bounds::positive()),
      number_param("weight_memory_share", &TrialSizing::weight_memory_share,
                   "share of a GPU's memory the weights may take; a larger model gets more GPUs per trial",
                   Bounds{0.0, 1.0, true})};
  return t;
}

double TrialSizing::params_of(const EvalRequest& request) {
  return request.model_params > 0.0 ? request.model_params : REFERENCE_MODEL_PARAMS;
}

double TrialSizing::model_bytes(const EvalRequest& request) const {
  return params_of(request) * bytes_per_param;
}

bool TrialSizing::fits(const EvalRequest& request) const {
  double per_gpu = weight_memory_share * request.cluster.gpu_memory_bytes;
  return model_bytes(request) <= per_gpu * std::max(1u, request.cluster.gpus_per_node);
}

std::uint32_t TrialSizing::gpus_per_trial(const EvalRequest& request) const {
  double per_gpu = weight_memory_share * request.cluster.gpu_memory_bytes;
  std::uint32_t node = std::max(1u, request.cluster.gpus_per_node);
  std::uint32_t g = 1;
  while (g < node && model_bytes(request) > per_gpu * g) {
    g *= 2;
  }
  return std::min(g, node);
}

double TrialSizing::inference_s(const EvalDataset& dataset, const EvalRequest& request, std::uint32_t gpus) const {
  return dataset.inference_s * (params_of(request) / REFERENCE_MODEL_PARAMS) / std::max(1u, gpus);
}

model::JobSpec eval_job_base(const EvalRequest& request, const TrialSizing& sizing) {
  model::JobSpec job;
  if (!sizing.fits(request)) {
    job.unfit = model::RejectReason::MODEL_TOO_LARGE; // a trial holds at most one node's GPUs
  }
  job.cluster = request.cluster.id;
  job.user = request.user;
  job.type = model::JobType::EVAL;
  job.submit_time_s = request.submit_time_s;
  job.eval_batch = request.batch;
  job.model_params = TrialSizing::params_of(request);
  return job;
}

model::TaskStep plan_step(model::TaskStep::Kind kind, double seconds, double bytes) {
  model::TaskStep step;
  step.kind = kind;
  step.seconds = seconds;
  step.bytes = bytes;
  return step;
}

double lone_read_s(const EvalRequest& request, double bytes) {
  return request.cluster.storage_read_Bps > 0.0 ? bytes / request.cluster.storage_read_Bps : 0.0;
}

} // namespace acme::policies
