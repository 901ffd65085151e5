#include "policies/eval/coupled_dispatch.hpp"

namespace acme::policies {

const ParamTable<CoupledParams>& CoupledParams::table() {
  static const ParamTable<CoupledParams> t =
      ParamTable<CoupledParams>{}.include(&CoupledParams::sizing, TrialSizing::table());
  return t;
}

std::vector<model::JobSpec> CoupledDispatch::dispatch(const EvalRequest& request) const {
  using K = model::TaskStep::Kind;
  const TrialSizing& sizing = params_.sizing;
  std::uint32_t gpus = sizing.gpus_per_trial(request);
  double bytes = sizing.model_bytes(request);
  std::vector<model::JobSpec> jobs;
  jobs.reserve(request.datasets.size());
  for (const EvalDataset& dataset : request.datasets) {
    double inference_s = sizing.inference_s(dataset, request, gpus);
    auto plan = std::make_shared<model::TaskPlan>();
    plan->prologue = {plan_step(K::STORAGE_READ, 0.0, bytes), plan_step(K::CPU, dataset.preprocess_s),
                      plan_step(K::GPU, inference_s), plan_step(K::GPU_IDLE, dataset.metric_s)};
    plan->gpus_per_lane = gpus;
    model::JobSpec job = eval_job_base(request, sizing);
    job.name = request.name + "-" + dataset.name;
    job.dataset = dataset.index;
    job.gpus = gpus;
    job.nodes = 1;
    job.cpus = gpus * request.cluster.cpus_per_gpu;
    job.duration_s = lone_read_s(request, bytes) + dataset.preprocess_s + inference_s + dataset.metric_s;
    job.plan = std::move(plan);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

} // namespace acme::policies
