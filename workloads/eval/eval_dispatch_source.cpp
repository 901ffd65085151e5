#include "workloads/eval/eval_dispatch_source.hpp"

#include <algorithm>
#include <map>

#include "sim/model/assert.hpp"
#include "workloads/eval/dataset_catalogue.hpp"
#include "workloads/eval/eval_request_workload.hpp"

namespace acme::workloads::eval {
namespace {

const std::vector<std::string> SECTION_KEYS = {"dispatch", "catalogue", "nodes"};

bool is_batch_job(const model::JobSpec& job) {
  return job.eval_batch != 0 && !job.plan;
}

} // namespace

EvalDispatchSource::EvalDispatchSource(std::unique_ptr<WorkloadSource> inner, EvalSettings settings)
    : inner_(std::move(inner))
    , settings_(std::move(settings)) {
  ACME_ASSERT(!settings_.catalogue.empty(), "an evaluation catalogue has datasets");
  lookahead_ = inner_->next();
}

std::optional<model::JobSpec> EvalDispatchSource::next() {
  while (ready_.empty()) {
    if (!fill()) {
      return std::nullopt;
    }
  }
  model::JobSpec job = std::move(ready_.front());
  ready_.pop_front();
  job.id = model::JobId{next_id_++};
  return job;
}

bool EvalDispatchSource::fill() {
  if (!lookahead_) {
    return false;
  }
  double instant_s = lookahead_->submit_time_s;
  std::vector<model::JobSpec> instant;
  while (lookahead_ && lookahead_->submit_time_s == instant_s) {
    instant.push_back(std::move(*lookahead_));
    lookahead_ = inner_->next();
  }
  std::map<std::uint64_t, std::vector<model::JobSpec>> batches;
  for (auto& job : instant) {
    if (is_batch_job(job)) {
      batches[job.eval_batch].push_back(job);
    }
  }
  for (auto& job : instant) {
    if (!is_batch_job(job)) {
      ready_.push_back(std::move(job));
      continue;
    }
    auto it = batches.find(job.eval_batch);
    if (it != batches.end()) { // the batch's first job: the whole batch goes here
      dispatch_batch(it->second);
      batches.erase(it);
    }
  }
  return true;
}

void EvalDispatchSource::dispatch_batch(const std::vector<model::JobSpec>& batch) {
  const model::JobSpec& first = batch.front();
  std::size_t cluster = model::to_index(first.cluster);
  policies::EvalRequest request;
  request.batch = first.eval_batch;
  request.name = first.name;
  request.user = first.user;
  request.submit_time_s = first.submit_time_s;
  request.model_params = first.model_params;
  request.cluster = settings_.clusters.at(cluster);
  const policies::EvalDispatch& policy = *settings_.policies.at(cluster);
  request.nodes = std::min(settings_.nodes * policy.gpus_per_trial(request), request.cluster.nodes);
  const auto& catalogue = settings_.catalogue;
  std::vector<bool> taken(catalogue.size(), false);
  for (const model::JobSpec& job : batch) {
    std::size_t row = (first.eval_batch + job.dataset) % catalogue.size();
    if (!taken[row]) {
      taken[row] = true;
      request.datasets.push_back(catalogue[row]);
    }
  }
  ++requests_;
  for (model::JobSpec& job : policy.dispatch(request)) {
    ready_.push_back(std::move(job));
  }
}

std::unique_ptr<WorkloadSource> with_evaluation(const WorkloadContext& ctx, std::unique_ptr<WorkloadSource> inner) {
  const config::Config& cfg = *ctx.config;
  config::Node section = cfg.root["evaluation"];
  if (!section.is_defined()) {
    return inner;
  }
  section.expect_map();
  section.expect_keys(SECTION_KEYS);
  EvalSettings settings;
  settings.catalogue = catalogue_from(cfg, section["catalogue"]);
  settings.nodes = section.get_or("nodes", 1u, &config::Node::as_count);
  for (std::size_t c = 0; c < cfg.clusters.size(); ++c) {
    settings.clusters.push_back(eval_cluster_shape(ctx, model::ClusterId{static_cast<std::uint16_t>(c)}));
    settings.policies.push_back(make_eval_dispatch(ctx, section["dispatch"], cfg.clusters[c].name));
  }
  return std::make_unique<EvalDispatchSource>(std::move(inner), std::move(settings));
}

} // namespace acme::workloads::eval
