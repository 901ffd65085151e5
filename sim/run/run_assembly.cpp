#include "sim/run/run_assembly.hpp"

#include <chrono>
#include <cmath>

#include "policies/builtin.hpp"
#include "policies/python/register_python.hpp"
#include "sim/config/faults.hpp"
#include "sim/config/provenance.hpp"
#include "sim/model/error.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/name_table.hpp"
#include "sim/model/units.hpp"
#include "sim/run/config_defaults.hpp"
#include "workloads/eval/eval_request_workload.hpp"
#include "workloads/synthetic/synthetic_options.hpp"

namespace acme::run {
namespace {

/// A synthetic workload's time series (samples x clusters) is known before the run: within
/// limits::MAX_TIMESERIES_ROWS, or the config is refused at once (the sampler stops any other run there).
void check_timeseries_rows(const config::Config& cfg) {
  const config::Node& section = cfg.workload;
  if (!section.is_map() || !section["kind"].is_scalar() || section["kind"].as_string() != "synthetic") {
    return;
  }
  double days = workloads::synthetic::parse_synthetic_options(cfg, section).days;
  double rows = std::ceil(days * model::SECONDS_PER_DAY / cfg.output.timeseries_interval_s) *
                static_cast<double>(cfg.clusters.size());
  if (rows > static_cast<double>(model::limits::MAX_TIMESERIES_ROWS)) {
    throw ConfigError(cfg.output.timeseries_interval_where, "output.timeseries_interval",
                      number_text(days) + " days of " + std::to_string(cfg.clusters.size()) +
                          " clusters sampled every " + number_text(cfg.output.timeseries_interval_s) + " s are " +
                          number_text(rows) + " rows of timeseries.csv; expected at most " +
                          std::to_string(model::limits::MAX_TIMESERIES_ROWS) + " (a longer interval)");
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
    check_timeseries_rows(config);
    workload = workloads::make_workload(workloads::WorkloadContext{&config, &p.users, &p.registries.eval_dispatches,
                                                                   workloads::eval::eval_cluster_shapes(config)});
  }
  p.workload = workload.get();
  metrics::RecorderOptions options = recorder_options(config, setup.out_dir, workload->epoch_unix_s());
  options.resolved_config = config::resolved_config_text(config, unwritten_defaults(config, p.registries));
  p.recorder = std::make_unique<metrics::Recorder>(std::move(options), p.users);
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
                                      r.storage_bytes_written, r.storage_bytes_read, r.plan_hold_s, r.fault_counts});
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
  ro.events_max_bytes = config.output.events_max_bytes;
  for (const auto& c : config.clusters) {
    ro.clusters.push_back({c.name, c.utc_offset_s, c.nodes, c.total_gpus(), c.storage.bw_Bps});
  }
  ro.failure_categories = config.faults->failures.category_names();
  ro.network_model = config.network.fluid();
  for (const auto& o : config.overrides) {
    ro.overrides.push_back(o.key_path + "=" + o.value);
  }
  for (const auto& in : config::input_files(config)) {
    ro.inputs.push_back({in.key, in.path, in.hash});
  }
  ro.resolved_config = config::resolved_config_text(config);
  return ro;
}

} // namespace acme::run
