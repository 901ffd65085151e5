#include "sim/engine/simulation.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <spdlog/logger.h>

#include "sim/core/event_loop.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/simgrid_driver.hpp"
#include "sim/engine/simgrid_fabric.hpp"
#include "sim/engine/simgrid_io.hpp"
#include "sim/log/log.hpp"
#include "sim/topology/cluster_graph.hpp"

namespace acme::engine {
namespace {

core::LoopSetup loop_setup(const config::Config& config, const policies::PolicyRegistries& registries,
                           const topology::ClusterGraph& graph, const Platform& platform,
                           std::unique_ptr<workloads::WorkloadSource> workload, metrics::Recorder& recorder,
                           core::IoService& io, core::FabricService& fabric, bool check_invariants) {
  core::LoopSetup setup;
  setup.config = &config;
  setup.registries = &registries;
  setup.graph = &graph;
  setup.workload = std::move(workload);
  setup.recorder = &recorder;
  setup.io = &io;
  setup.fabric = &fabric;
  for (std::size_t c = 0; c < config.clusters.size(); ++c) {
    model::ClusterId id{static_cast<std::uint16_t>(c)};
    setup.storage_nic_bw_Bps.push_back(platform.storage_nic_bw_Bps(id, model::NodeId{0}));
  }
  setup.check_invariants = check_invariants;
  return setup;
}

} // namespace

/// The SimGrid platform and I/O service, the SimGrid-free event loop, and the adaptor between them.
struct Simulation::Impl {
  Impl(const config::Config& cfg, const policies::PolicyRegistries& registries,
       std::unique_ptr<workloads::WorkloadSource> workload, metrics::Recorder& rec, SimulationOptions options)
      : config(cfg)
      , graph(cfg)
      , platform(graph, cfg)
      , fabric(platform, cfg, [this](const core::EngineEvent& event) { driver.post(event); })
      , io(
            platform, [this](const core::TransferDone& done) { driver.post(done); }, cfg.network.fluid(),
            cfg.network.fluid()
                ? SimgridIo::Changed([this](model::ClusterId cluster, const std::vector<model::NodeId>& nodes,
                                            int delta) { fabric.transfer_changed(cluster, nodes, delta); })
                : SimgridIo::Changed())
      , loop(loop_setup(cfg, registries, graph, platform, std::move(workload), rec, io, fabric,
                        options.check_invariants))
      , driver(platform, io, fabric, loop, std::move(options.on_progress)) {}

  const config::Config& config;
  topology::ClusterGraph graph;
  Platform platform;
  SimgridFabric fabric;
  SimgridIo io;
  core::EventLoop loop;
  SimgridDriver driver;
};

Simulation::Simulation(const config::Config& config, const policies::PolicyRegistries& registries,
                       std::unique_ptr<workloads::WorkloadSource> workload, metrics::Recorder& recorder,
                       SimulationOptions options)
    : impl_(std::make_unique<Impl>(config, registries, std::move(workload), recorder, std::move(options))) {}

Simulation::~Simulation() = default;

const PlatformSummary& Simulation::platform_summary() const {
  return impl_->platform.summary();
}

RunResult Simulation::run() {
  // Every log line of the run starts with the simulated time, as SimGrid's do.
  log::SimClockScope clock([] { return simgrid::s4u::Engine::get_clock(); });
  spdlog::logger& log = log::get(log::Category::ENGINE);
  const PlatformSummary& platform = impl_->platform.summary();
  log.info("run starts: {} cluster(s), {} GPUs", impl_->config.clusters.size(), platform.total_gpus);
  impl_->driver.run();
  core::EventLoop& loop = impl_->loop;
  loop.finish();
  log.info("run ends: {} jobs submitted, {} recorded, {} rejected, {} instants", loop.jobs_submitted(),
           loop.jobs_recorded(), loop.jobs_rejected(), loop.instants());
  RunResult result;
  result.end_time_s = loop.now_s();
  result.jobs_submitted = loop.jobs_submitted();
  result.jobs_recorded = loop.jobs_recorded();
  result.jobs_rejected = loop.jobs_rejected();
  result.instants = loop.instants();
  for (std::size_t c = 0; c < impl_->config.clusters.size(); ++c) {
    model::ClusterId cid{static_cast<std::uint16_t>(c)};
    result.storage_bytes_written.push_back(impl_->io.bytes_moved(cid, core::IoDirection::WRITE));
    result.storage_bytes_read.push_back(impl_->io.bytes_moved(cid, core::IoDirection::READ));
    result.plan_hold_s.push_back(loop.plan_hold_times_s(c));
    result.fault_counts.push_back(loop.fault_counts(c));
  }
  return result;
}

} // namespace acme::engine
