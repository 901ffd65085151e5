#include "acme/engine/simulation.hpp"

#include "acme/engine/engine_state.hpp"

namespace acme::engine {
namespace {

model::ClusterShape shape_of(const config::ClusterConfig& c, model::ClusterId id,
                             const topology::ClusterVertices& vertices) {
  model::ClusterShape shape;
  shape.id = id;
  shape.name = c.name;
  shape.nodes = c.nodes;
  shape.gpus_per_node = c.gpus_per_node;
  shape.cpu_pool_cores = c.nodes * c.cpu_job_cores_per_node;
  shape.leaf_of_node = vertices.leaf_of_node;
  shape.leaves = static_cast<std::uint32_t>(vertices.leaves.size());
  shape.utc_offset_s = c.utc_offset_s;
  return shape;
}

} // namespace

Simulation::Impl::Impl(const config::Config& cfg, const policies::PolicyRegistries& registries,
                       std::unique_ptr<workloads::WorkloadSource> source, metrics::Recorder& rec,
                       SimulationOptions opts)
    : config(cfg), graph(cfg), platform(graph, cfg), workload(std::move(source)), recorder(rec),
      options(std::move(opts)) {
  for (std::size_t c = 0; c < cfg.clusters.size(); ++c) {
    const auto& cc = cfg.clusters[c];
    model::ClusterId id{static_cast<std::uint16_t>(c)};
    policies::PolicyContext context{cfg.seed, cc.name};
    ClusterRuntime runtime{model::ClusterView(shape_of(cc, id, graph.cluster(id))),
                           registries.schedulers.create(cc.scheduler, context),
                           {},
                           0.0};
    runtime.scheduler->set_placement(registries.placements.create(cc.placement, context));
    clusters.push_back(std::move(runtime));
  }
  next_sample_s = cfg.output.timeseries_interval_s;
  next_job = workload->next();
}

Simulation::Simulation(const config::Config& config, const policies::PolicyRegistries& registries,
                       std::unique_ptr<workloads::WorkloadSource> workload, metrics::Recorder& recorder,
                       SimulationOptions options)
    : impl_(std::make_unique<Impl>(config, registries, std::move(workload), recorder, std::move(options))) {}

Simulation::~Simulation() = default;

const PlatformSummary& Simulation::platform_summary() const { return impl_->platform.summary(); }

const Platform& Simulation::platform() const { return impl_->platform; }

RunResult Simulation::run() { return impl_->run(); }

} // namespace acme::engine
