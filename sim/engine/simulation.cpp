#include "sim/engine/simulation.hpp"

#include "sim/config/calibration.hpp"
#include "sim/engine/engine_state.hpp"

namespace acme::engine {
namespace {

model::ClusterShape shape_of(const config::ClusterConfig& c, model::ClusterId id,
                             const topology::ClusterVertices& vertices) {
  model::ClusterShape shape;
  shape.id = id;
  shape.name = c.name;
  shape.nodes = c.nodes;
  shape.gpus_per_node = c.gpus_per_node;
  shape.gpus_of_node = c.gpus_of_node;
  shape.cpu_pool_cores = c.nodes * c.cpu_job_cores_per_node;
  shape.leaf_of_node = vertices.leaf_of_node;
  shape.leaves = static_cast<std::uint32_t>(vertices.leaves.size());
  shape.utc_offset_s = c.utc_offset_s;
  return shape;
}

/// Costs of the checkpoint model, from the run's calibration (`calibration:`; default: the A100
/// spec, configs/calibration/a100-spec.yaml). When every GPU of a node copies at once, the two GPUs
/// under each PCIe switch share its link (`checkpoint.gpus_per_pcie_switch`).
CheckpointCosts costs_from(const config::Config& config) {
  config::Calibration cal = config::load_calibration(config.root["calibration"], config.base_dir);
  double share = config.faults->checkpoint.gpus_per_pcie_switch;
  return CheckpointCosts{cal.d2h_pinned_bw_Bps / share, cal.h2d_pinned_bw_Bps / share,
                         cal.async_compute_slowdown_fraction};
}

} // namespace

Simulation::Impl::Impl(const config::Config& cfg, const policies::PolicyRegistries& registries,
                       std::unique_ptr<workloads::WorkloadSource> source, metrics::Recorder& rec,
                       SimulationOptions opts)
    : config(cfg)
    , faults(*cfg.faults)
    , graph(cfg)
    , platform(graph, cfg)
    , io(platform, [this](const core::TransferDone& done) { post_transfer_done(done); })
    , workload(std::move(source))
    , recorder(rec)
    , options(std::move(opts))
    , failure_rng(cfg.seed, "engine/failures")
    , recovery_rng(cfg.seed, "engine/recovery")
    , launch_rng(cfg.seed, "engine/launch") {
  policies::PolicyContext run_context{cfg.seed, ""};
  checkpoint_policy = registries.checkpoints.create(faults.checkpoint.policy, run_context);
  recovery_policy = registries.recoveries.create(faults.recovery.policy, run_context);
  costs = costs_from(cfg);
  for (std::size_t c = 0; c < cfg.clusters.size(); ++c) {
    const auto& cc = cfg.clusters[c];
    model::ClusterId id{static_cast<std::uint16_t>(c)};
    policies::PolicyContext context{cfg.seed, cc.name};
    ClusterRuntime runtime(model::ClusterView(shape_of(cc, id, graph.cluster(id))));
    runtime.scheduler = registries.schedulers.create(cc.scheduler, context);
    runtime.scheduler->set_placement(registries.placements.create(cc.placement, context));
    runtime.jobs_on_node.resize(cc.nodes);
    runtime.down_reasons.assign(cc.nodes, 0);
    runtime.failure_generation.assign(cc.nodes, 0);
    runtime.launch_latency = cc.launch_latency;
    runtime.storage_bw_Bps = cc.storage.bw_Bps;
    runtime.storage_nic_bw_Bps = platform.storage_nic_bw_Bps(id, model::NodeId{0});
    clusters.push_back(std::move(runtime));
  }
  next_sample_s = cfg.output.timeseries_interval_s;
  next_job = workload->next();
  set_aside_spares();
  start_failure_processes();
}

Simulation::Simulation(const config::Config& config, const policies::PolicyRegistries& registries,
                       std::unique_ptr<workloads::WorkloadSource> workload, metrics::Recorder& recorder,
                       SimulationOptions options)
    : impl_(std::make_unique<Impl>(config, registries, std::move(workload), recorder, std::move(options))) {}

Simulation::~Simulation() = default;

const PlatformSummary& Simulation::platform_summary() const {
  return impl_->platform.summary();
}

const Platform& Simulation::platform() const {
  return impl_->platform;
}

RunResult Simulation::run() {
  return impl_->run();
}

} // namespace acme::engine
