#include "sim/run/run_assembly.hpp"

#include <chrono>
#include <filesystem>

#include "policies/builtin.hpp"
#include "policies/python/register_python.hpp"
#include "sim/config/faults.hpp"
#include "sim/model/error.hpp"
#include "sim/model/name_table.hpp"
#include "workloads/eval/eval_request_workload.hpp"
#include <unistd.h>

namespace acme::run {
namespace {

void prepare_output(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || ::access(dir.c_str(), W_OK) != 0) {
    throw ConfigError(Location{"acme-sim run", 0, 0}, "",
                      "-o " + dir + ": cannot write to this folder" + (ec ? " (" + ec.message() + ")" : "") +
                          "; expected a writable output folder");
  }
}

} // namespace

/// The run's parts, in construction order: each may refer to the ones before it.
struct AssembledRun::Parts {
  const config::Config* config = nullptr;
  policies::PolicyRegistries registries = policies::python::make_registries_with_python();
  model::NameTable users;
  workloads::WorkloadSource* workload = nullptr; ///< owned by the simulation
  std::unique_ptr<metrics::Recorder> recorder;
  std::unique_ptr<engine::Simulation> simulation;
};

AssembledRun::AssembledRun(const config::Config& config, RunSetup setup) : parts_(std::make_unique<Parts>()) {
  Parts& p = *parts_;
  p.config = &config;
  std::unique_ptr<workloads::WorkloadSource> workload = std::move(setup.workload);
  if (!workload) {
    workload = workloads::make_workload(workloads::WorkloadContext{&config, &p.users, &p.registries.eval_dispatches,
                                                                   workloads::eval::eval_cluster_shapes(config)});
  }
  prepare_output(setup.out_dir);
  p.workload = workload.get();
  p.recorder =
      std::make_unique<metrics::Recorder>(recorder_options(config, setup.out_dir, workload->epoch_unix_s()), p.users);
  p.simulation = std::make_unique<engine::Simulation>(config, p.registries, std::move(workload), *p.recorder,
                                                      std::move(setup.simulation));
}

AssembledRun::~AssembledRun() = default;

const engine::PlatformSummary& AssembledRun::platform_summary() const {
  return parts_->simulation->platform_summary();
}

RunReport AssembledRun::run() {
  Parts& p = *parts_;
  RunReport report;
  auto t0 = std::chrono::steady_clock::now();
  report.result = p.simulation->run();
  report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const engine::RunResult& r = report.result;
  p.recorder->finish(metrics::RunInfo{r.end_time_s, r.jobs_submitted, p.workload->skipped_rows(), report.wall_s,
                                      r.storage_bytes_written, r.storage_bytes_read});
  return report;
}

std::unique_ptr<AssembledRun> make_run(const config::Config& config, RunSetup setup) {
  return std::make_unique<AssembledRun>(config, std::move(setup));
}

metrics::RecorderOptions recorder_options(const config::Config& config, const std::string& out_dir,
                                          double epoch_unix_s) {
  metrics::RecorderOptions ro;
  ro.out_dir = out_dir;
  ro.epoch_unix_s = epoch_unix_s;
  ro.seed = config.seed;
  ro.config_file = config.file;
  ro.write_jobs_csv = config.output.jobs_csv;
  ro.write_events = config.output.events;
  for (const auto& c : config.clusters) {
    ro.clusters.push_back({c.name, c.utc_offset_s, c.nodes, c.total_gpus(), c.storage.bw_Bps});
  }
  ro.failure_categories = config.faults->failures.category_names();
  ro.network_model = config.network.fluid();
  return ro;
}

} // namespace acme::run
