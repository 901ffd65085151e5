#include "policies/eval/trial_coordinator.hpp"

#include <algorithm>
#include <string>

#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {
namespace {

std::uint32_t lanes_per_node(const EvalRequest& request, std::uint32_t gpus_per_lane) {
  return std::max(1u, request.cluster.gpus_per_node / gpus_per_lane);
}

} // namespace

const ParamTable<TrialCoordinatorParams>& TrialCoordinatorParams::table() {
  using P = TrialCoordinatorParams;
  static const ParamTable<PackingParams> packing{
      duration_param("batch_below", &PackingParams::batch_below_s,
                     "datasets expected to take less GPU-lane time are batched into one trial"),
      number_param("split_share", &PackingParams::split_share,
                   "datasets longer than this share of a lane's fair share of the work are split into shards",
                   Bounds{0.0, 1.0, true}),
      duration_param("long_metric", &PackingParams::long_metric_s,
                     "trials with a metric phase at least this long go first"),
      choice_param("assign", &PackingParams::assign,
                   {{"round_robin", LaneAssignment::ROUND_ROBIN}, {"least_loaded", LaneAssignment::LEAST_LOADED}},
                   "round_robin (the paper) or least_loaded: how the sorted queue goes to lanes")};
  static const ParamTable<P> t = ParamTable<P>{}
                                     .include(&P::packing, packing)
                                     .add(count_param("metric_cpus", &P::metric_cpus, "CPU cores of each metric job"))
                                     .include(&P::sizing, TrialSizing::table());
  return t;
}

std::vector<std::vector<PlannedTrial>> TrialCoordinator::plan_lanes(const EvalRequest& request) const {
  std::uint32_t gpus = params_.sizing.gpus_per_trial(request);
  std::vector<TrialPart> parts;
  for (std::uint32_t i = 0; i < request.datasets.size(); ++i) {
    const EvalDataset& d = request.datasets[i];
    parts.push_back(TrialPart{i, 0, 1, d.preprocess_s, params_.sizing.inference_s(d, request, gpus), d.metric_s});
  }
  std::uint32_t lanes = lanes_per_node(request, gpus) * std::max(1u, request.nodes);
  auto queue = order_trials(pack_trials(parts, lanes, params_.packing), params_.packing);
  return assign_lanes(queue, lanes, params_.packing.assign);
}

model::JobSpec TrialCoordinator::metric_job(const EvalRequest& request, const TrialPart& part) const {
  const EvalDataset& dataset = request.datasets.at(part.dataset);
  model::JobSpec job = eval_job_base(request, params_.sizing);
  job.name = request.name + "-metric-" + dataset.name;
  if (part.shards > 1) {
    job.name += "." + std::to_string(part.shard);
  }
  job.dataset = dataset.index;
  job.cpus = params_.metric_cpus;
  job.duration_s = part.metric_s;
  return job;
}

std::vector<model::TaskStep> TrialCoordinator::lane_steps(const EvalRequest& request,
                                                          const std::vector<PlannedTrial>& trials) const {
  using K = model::TaskStep::Kind;
  std::uint32_t gpus = params_.sizing.gpus_per_trial(request);
  double shard_bytes = params_.sizing.model_bytes(request) / gpus; // each GPU of the lane gets its shard
  std::vector<model::TaskStep> steps;
  for (const PlannedTrial& trial : trials) {
    double preprocess_s = 0.0;
    double inference_s = 0.0;
    for (const TrialPart& part : trial.parts) {
      preprocess_s += part.preprocess_s;
      inference_s += part.inference_s;
    }
    steps.push_back(plan_step(K::HOST_COPY, 0.0, shard_bytes));
    steps.push_back(plan_step(K::CPU, preprocess_s));
    steps.push_back(plan_step(K::GPU, inference_s));
    for (const TrialPart& part : trial.parts) {
      if (part.metric_s > 0.0) {
        model::TaskStep spawn = plan_step(K::SPAWN, 0.0);
        spawn.follow_up = std::make_shared<const model::JobSpec>(metric_job(request, part));
        steps.push_back(std::move(spawn));
      }
    }
  }
  return steps;
}

std::vector<model::JobSpec> TrialCoordinator::dispatch(const EvalRequest& request) const {
  using K = model::TaskStep::Kind;
  std::uint32_t gpus = params_.sizing.gpus_per_trial(request);
  std::uint32_t per_node = lanes_per_node(request, gpus);
  double bytes = params_.sizing.model_bytes(request);
  auto lanes = plan_lanes(request);
  std::vector<model::JobSpec> jobs;
  for (std::size_t first = 0; first < lanes.size(); first += per_node) {
    auto plan = std::make_shared<model::TaskPlan>();
    plan->prologue = {plan_step(K::STORAGE_READ, 0.0, bytes)};
    plan->gpus_per_lane = gpus;
    double longest_s = 0.0;
    for (std::size_t l = first; l < std::min(lanes.size(), first + per_node) && !lanes[l].empty(); ++l) {
      plan->lanes.push_back(lane_steps(request, lanes[l]));
      double lane_s = 0.0;
      for (const PlannedTrial& t : lanes[l]) {
        lane_s += t.lane_s();
      }
      longest_s = std::max(longest_s, lane_s);
    }
    if (plan->lanes.empty()) {
      break; // lanes fill in order: no later node has work either
    }
    model::JobSpec job = eval_job_base(request, params_.sizing);
    job.name = request.name + "-node" + std::to_string(jobs.size());
    job.gpus = static_cast<std::uint32_t>(plan->lanes.size()) * gpus;
    job.nodes = 1;
    job.cpus = job.gpus * request.cluster.cpus_per_gpu;
    job.duration_s = lone_read_s(request, bytes) + longest_s;
    job.plan = std::move(plan);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

} // namespace acme::policies
