#include "workloads/eval/eval_request_workload.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/assert.hpp"
#include "workloads/eval/dataset_catalogue.hpp"
#include "workloads/list_source.hpp"

namespace acme::workloads::eval {
namespace {

const std::vector<std::string> KEYS = {"kind", "model_params", "datasets", "catalogue", "nodes",
                                       "at",   "dispatch",     "cluster",  "name"};
/// The request's id (JobSpec::eval_batch): the only request of the run.
constexpr std::uint64_t REQUEST_BATCH = 1;

model::ClusterId pick_cluster(const config::Config& cfg, const config::Node& node) {
  if (!node.is_defined()) {
    if (cfg.clusters.size() > 1) {
      node.fail("missing key \"cluster\"; expected the cluster that runs the request (one of: " +
                join(cfg.cluster_names()) + ")");
    }
    return model::ClusterId{0};
  }
  std::string name = node.as_string();
  for (std::size_t i = 0; i < cfg.clusters.size(); ++i) {
    if (cfg.clusters[i].name == name) {
      return model::ClusterId{static_cast<std::uint16_t>(i)};
    }
  }
  node.fail("unknown cluster \"" + name + "\"; expected one of: " + join(cfg.cluster_names()));
}

double model_params_of(const config::Node& node) {
  if (!node.is_defined()) {
    return policies::REFERENCE_MODEL_PARAMS;
  }
  double params = node.as_double();
  if (!(params > 0.0) || !std::isfinite(params)) {
    node.fail("expected a positive parameter count such as 7e9");
  }
  return params;
}

policies::EvalClusterShape shape_of(const config::ClusterConfig& c, model::ClusterId id) {
  policies::EvalClusterShape shape;
  shape.id = id;
  shape.gpus_per_node = std::max(1u, c.gpus_per_node);
  shape.nodes = c.nodes;
  if (c.gpu.memory_bytes > 0.0) {
    shape.gpu_memory_bytes = c.gpu.memory_bytes;
  }
  if (c.cpu_cores_per_node >= shape.gpus_per_node) {
    shape.cpus_per_gpu = c.cpu_cores_per_node / shape.gpus_per_node;
  }
  const config::NetworkConfig& n = c.network;
  double nic_Bps =
      n.storage_nics_per_node > 0 ? n.storage_nics_per_node * n.storage_nic_bw_Bps : n.nics_per_node * n.nic_bw_Bps;
  shape.storage_read_Bps = c.storage.bw_Bps > 0.0 ? std::min(nic_Bps, c.storage.bw_Bps) : nic_Bps;
  return shape;
}

} // namespace

std::vector<policies::EvalClusterShape> eval_cluster_shapes(const config::Config& config) {
  std::vector<policies::EvalClusterShape> out;
  for (std::size_t c = 0; c < config.clusters.size(); ++c) {
    out.push_back(shape_of(config.clusters[c], model::ClusterId{static_cast<std::uint16_t>(c)}));
  }
  return out;
}

const policies::EvalClusterShape& eval_cluster_shape(const WorkloadContext& context, model::ClusterId id) {
  ACME_ASSERT(model::to_index(id) < context.eval_clusters.size(),
              "an evaluation workload needs WorkloadContext::eval_clusters (eval_cluster_shapes)");
  return context.eval_clusters[model::to_index(id)];
}

std::unique_ptr<policies::EvalDispatch> make_eval_dispatch(const WorkloadContext& context, const config::Node& node,
                                                           const std::string& cluster) {
  ACME_ASSERT(context.eval_dispatches != nullptr,
              "an evaluation workload needs WorkloadContext::eval_dispatches (the run's dispatch registry)");
  config::PolicySpec spec = config::parse_policy(node, "eval dispatch", "coupled");
  return context.eval_dispatches->create(
      spec, policies::PolicyContext{context.config->seed, cluster, context.config->base_dir});
}

std::unique_ptr<WorkloadSource> make_eval_request_workload(const WorkloadContext& ctx, const config::Node& section) {
  section.expect_keys(KEYS);
  const config::Config& cfg = *ctx.config;
  policies::EvalRequest request;
  request.batch = REQUEST_BATCH;
  request.cluster = eval_cluster_shape(ctx, pick_cluster(cfg, section["cluster"]));
  request.name = section["name"].is_defined() ? section["name"].as_string() : "eval";
  if (request.name.find(',') != std::string::npos) {
    section["name"].fail("expected a name without commas (it prefixes job names in jobs.csv)");
  }
  request.user = ctx.users->intern(EVAL_REQUEST_USER);
  request.model_params = model_params_of(section["model_params"]);
  request.datasets = select_datasets(cfg, section["datasets"], catalogue_from(cfg, section["catalogue"]));
  request.nodes = section.get_or("nodes", 1u, &config::Node::as_count);
  if (request.nodes > request.cluster.nodes) {
    section["nodes"].fail("expected at most " + std::to_string(request.cluster.nodes) + " nodes (the cluster's)");
  }
  if (config::Node at = section["at"]; at.is_defined()) {
    request.submit_time_s = at.as_duration_s();
    if (request.submit_time_s < 0.0) {
      at.fail("expected a time >= 0 such as \"0s\"");
    }
  }
  const std::string& cluster_name = cfg.clusters.at(model::to_index(request.cluster.id)).name;
  auto policy = make_eval_dispatch(ctx, section["dispatch"], cluster_name);
  return std::make_unique<ListSource>(policy->dispatch(request));
}

} // namespace acme::workloads::eval
