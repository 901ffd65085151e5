#include "policies/eval/trial_sizing.hpp"

#include <algorithm>
#include <cmath>

#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {

TrialSizing TrialSizing::parse(const config::Node& node) {
  TrialSizing s;
  if (!node.is_map()) {
    return s;
  }
  if (config::Node b = node["bytes_per_param"]; b.is_defined()) {
    s.bytes_per_param = b.as_double();
    if (!(s.bytes_per_param > 0.0) || !std::isfinite(s.bytes_per_param)) {
      b.fail("expected a positive number of bytes per parameter such as 2 (bf16)");
    }
  }
  if (config::Node m = node["weight_memory_share"]; m.is_defined()) {
    s.weight_memory_share = m.as_double();
    if (!(s.weight_memory_share > 0.0) || s.weight_memory_share > 1.0) {
      m.fail("expected a share of GPU memory in (0, 1] such as 0.5");
    }
  }
  return s;
}

std::vector<ParamDoc> TrialSizing::docs() {
  return {{"bytes_per_param", format_number(DEFAULT_BYTES_PER_PARAM), "bytes of model weights per parameter (bf16)"},
          {"weight_memory_share", format_number(DEFAULT_WEIGHT_MEMORY_SHARE),
           "share of a GPU's memory the weights may take; a larger model gets more GPUs per trial"}};
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
