#include "sim/metrics/recorder.hpp"

#include <fmt/format.h>
#include <spdlog/logger.h>

#include <array>
#include <cmath>

#include "sim/log/log.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "sim/metrics/eval_stats.hpp"
#include "sim/metrics/event_trace.hpp"
#include "sim/metrics/fault_stats.hpp"
#include "sim/metrics/job_columns.hpp"
#include "sim/metrics/network_stats.hpp"
#include "sim/metrics/output_set.hpp"
#include "sim/metrics/power_stats.hpp"
#include "sim/metrics/summary_builder.hpp"
#include "sim/metrics/text_append.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/units.hpp"

namespace acme::metrics {
namespace {

constexpr const char* TIMESERIES_HEADER =
    "time,cluster,busy_gpus,queued_jobs,queued_gpus,running_jobs,up_nodes,power_kW,nodes_off";
// Columns of the fluid network model only: runs without it keep the files they always had.
constexpr const char* TIMESERIES_NETWORK_COLUMNS = ",nic_util_mean,nic_idle_share,nic_util_p95,spine_util";
using model::JOULES_PER_KWH;
constexpr double WATTS_PER_KW = 1000.0;
constexpr std::size_t FLUSH_BYTES = 1 << 20;
/// Every file a run may write: committed together (OutputSet); one this run does not write is removed.
constexpr std::array<const char*, 7> OUTPUT_FILES = {"jobs.csv",  "events.csv",   "timeseries.csv",      "runs.csv",
                                                     "nodes.csv", "summary.json", "config.resolved.yaml"};

} // namespace

Recorder::Recorder(RecorderOptions options, const model::NameTable& users)
    : options_(std::move(options))
    , users_(&users)
    , output_(std::make_unique<OutputSet>(options_.out_dir,
                                          std::vector<std::string>(OUTPUT_FILES.begin(), OUTPUT_FILES.end())))
    , summary_(std::make_unique<SummaryBuilder>(options_.clusters, users))
    , faults_(std::make_unique<FaultStats>(options_.clusters, options_.failure_categories))
    , evals_(std::make_unique<EvalStats>(options_.clusters.size()))
    , network_(std::make_unique<NetworkStats>(options_.clusters.size()))
    , power_(std::make_unique<PowerStats>(options_.clusters.size())) {
  log::get(log::Category::METRICS)
      .debug("output folder {} (jobs.csv {}, events.csv {}); files appear when the run ends", options_.out_dir,
             options_.write_jobs_csv ? "on" : "off", options_.write_events ? "on" : "off");
  if (options_.write_jobs_csv) {
    jobs_file_ = std::make_unique<AtomicFile>(output_->staged_path("jobs.csv"));
    jobs_buffer_ = jobs_header(options_.network_model) + '\n';
  }
  if (options_.write_events) {
    std::vector<std::string> names;
    for (const auto& c : options_.clusters) {
      names.push_back(c.name);
    }
    events_ = std::make_unique<EventTrace>(output_->staged_path("events.csv"), names);
    events_->set_max_bytes(options_.events_max_bytes);
  }
  timeseries_ = TIMESERIES_HEADER;
  timeseries_ += options_.network_model ? TIMESERIES_NETWORK_COLUMNS : "";
  timeseries_ += '\n';
}

Recorder::~Recorder() = default;

void Recorder::on_job(const JobRecord& record) {
  ++jobs_recorded_;
  summary_->add(record);
  faults_->add(record);
  evals_->add(record);
  network_->add(record);
  power_->add(record);
  if (jobs_file_) {
    append_job_row(record);
    if (jobs_buffer_.size() > FLUSH_BYTES) {
      jobs_file_->write(jobs_buffer_);
      jobs_buffer_.clear();
    }
  }
}

void Recorder::append_job_row(const JobRecord& r) {
  bool started = ever_started(r);
  JobRowContext context{r,
                        options_.clusters.at(model::to_index(r.spec->cluster)),
                        *users_,
                        *faults_,
                        options_.epoch_unix_s,
                        date_formatter_,
                        started,
                        started ? r.end_s - r.first_start_s : 0.0};
  metrics::append_job_row(jobs_buffer_, context, options_.network_model);
}

double queueing_delay_s(const JobRecord& record) {
  // A job that left before it ever started (a node failed under it while its pods started) waited its
  // whole stay: its start is unknown, not -1.
  double started_s = ever_started(record) ? record.first_start_s : record.end_s;
  return started_s - record.spec->submit_time_s;
}

model::WaitReason longest_wait(const std::array<double, model::WAIT_REASON_COUNT>& wait_s) {
  std::size_t best = 0;
  for (std::size_t r = 1; r < model::WAIT_REASON_COUNT; ++r) {
    if (wait_s[r] > wait_s[best]) {
      best = r;
    }
  }
  return static_cast<model::WaitReason>(best);
}

void Recorder::on_sample(const ClusterSample& s) {
  const ClusterInfo& cluster = options_.clusters.at(s.cluster);
  if (last_sample_s_.size() != options_.clusters.size()) {
    last_sample_s_.assign(options_.clusters.size(), 0.0);
  }
  summary_->add_busy_gpu_seconds(s.cluster, s.busy_gpus_avg * (s.time_s - last_sample_s_[s.cluster]));
  last_sample_s_[s.cluster] = s.time_s;
  network_->add_sample(s);
  fmt::format_to(std::back_inserter(timeseries_), "{},{},{},{},{},{},{},{},{}",
                 model::format_datetime(options_.epoch_unix_s + s.time_s, cluster.utc_offset_s),
                 model::csv_field(cluster.name), s.busy_gpus_avg, s.queued_jobs, s.queued_gpus, s.running_jobs,
                 s.up_nodes, s.power_W / WATTS_PER_KW, s.nodes_off);
  if (s.network) {
    fmt::format_to(std::back_inserter(timeseries_), ",{},{},{},{}", s.nic_util_mean, s.nic_idle_share, s.nic_util_p95,
                   s.spine_util);
  } else if (options_.network_model) {
    timeseries_ += ",,,,";
  }
  timeseries_ += '\n';
}

void Recorder::on_power(std::vector<ClusterPowerReport> reports) {
  power_->set_reports(std::move(reports));
}

void Recorder::on_nodes(std::string nodes_csv) {
  nodes_csv_ = std::move(nodes_csv);
}

void Recorder::finish(const RunInfo& info) {
  try {
    commit_files(info);
  } catch (const ConfigError& e) {
    output_->rethrow_at_final_names(e); // "out/jobs.csv: cannot write: ...", not the staging folder's name
  }
}

void Recorder::commit_files(const RunInfo& info) {
  std::string summary_json =
      summary_->render(options_, info, *faults_, *evals_, *power_, options_.network_model ? network_.get() : nullptr);
  if (jobs_file_) {
    jobs_file_->write(jobs_buffer_);
    jobs_buffer_.clear();
    jobs_file_->commit();
    jobs_file_.reset();
  }
  if (events_) {
    events_->commit();
    if (events_->dropped_rows() > 0) {
      log::get(log::Category::METRICS)
          .warn("events.csv stopped at output.events_max ({} bytes): its {} rows run to simulated time {} s, the "
                "{} later events are not written; raise output.events_max to keep them",
                fmt::format("{:.0f}", options_.events_max_bytes), events_->rows(),
                fmt::format("{:.0f}", events_->dropped_from_s()), events_->dropped_rows());
    }
  }
  output_->write("timeseries.csv", timeseries_);
  output_->write("runs.csv", faults_->runs_csv());
  if (!nodes_csv_.empty()) {
    output_->write("nodes.csv", nodes_csv_);
  }
  output_->write("summary.json", summary_json);
  if (!options_.resolved_config.empty()) {
    output_->write("config.resolved.yaml",
                   std::string("# written by: ") + ACME_VERSION_TEXT + "\n" + options_.resolved_config);
  }
  output_->commit(); // every file at once; stale ones of an earlier run (a jobs.csv) go
}

} // namespace acme::metrics
