#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/metrics/job_record.hpp"
#include "sim/metrics/power_report.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/name_table.hpp"

namespace acme::metrics {

class AtomicFile;
class EvalStats;
class EventTrace;
class FaultStats;
class NetworkStats;
class OutputSet;
class PowerStats;
class SummaryBuilder;

/// A file the run read, as summary.json's provenance names it (sim/config/provenance.hpp).
struct RunInput {
  std::string key;  ///< where the config names it ("config" for the config's own text)
  std::string path; ///< as resolved
  std::string hash; ///< content hash (16 hex digits)
};

struct RecorderOptions {
  std::string out_dir;
  std::vector<ClusterInfo> clusters;
  double epoch_unix_s = 0.0;
  std::uint64_t seed = 0;
  std::string config_file;
  bool write_jobs_csv = true;
  bool write_events = false;                   ///< events.csv (the `output.events` key)
  double events_max_bytes = 0.0;               ///< its bound (`output.events_max`; 0: none)
  std::vector<std::string> failure_categories; ///< names, in the order of JobRecord::failures
  bool network_model = false;                  ///< the fluid network model runs: summary.json's network blocks
  std::vector<std::string> overrides;          ///< key=value, in the order applied
  std::vector<RunInput> inputs;                ///< every file the run read, the config first
  std::string resolved_config;                 ///< config.resolved.yaml's text ("": not written)
};

/// Facts about the whole run, known at its end.
struct RunInfo {
  double end_time_s = 0.0; ///< simulated time of the last event
  std::uint64_t jobs_submitted = 0;
  std::uint64_t trace_rows_skipped = 0;
  double wall_seconds = 0.0;
  std::vector<double> storage_bytes_written;                   ///< per cluster
  std::vector<double> storage_bytes_read;                      ///< per cluster
  std::vector<std::optional<std::vector<double>>> plan_hold_s; ///< per cluster: team plan holds, if it has a plan
  std::vector<FaultCounts> fault_counts;                       ///< per cluster
};

/// Receives every job's final record and the periodic cluster samples; writes jobs.csv (streamed),
/// summary.json, timeseries.csv, runs.csv (and events.csv) into a staging folder and commits them together
/// at the end (OutputSet). Only receives: it never asks the engine anything.
class Recorder {
public:
  Recorder(RecorderOptions options, const model::NameTable& users);
  ~Recorder();

  void on_job(const JobRecord& record);
  void on_sample(const ClusterSample& sample);
  /// Each cluster's energy account at the end of the run (before finish()).
  void on_power(std::vector<ClusterPowerReport> reports);
  /// nodes.csv's text (metrics::nodes_csv), when the run models failures; without, no nodes.csv is written.
  void on_nodes(std::string nodes_csv);
  /// Writes the summary and time series and commits every file. Nothing is visible before.
  void finish(const RunInfo& info);

  /// The event trace (events.csv), or null when it is off: the engine's calls cost one branch then.
  EventTrace* events() { return events_.get(); }
  std::uint64_t jobs_recorded() const { return jobs_recorded_; }

private:
  void append_job_row(const JobRecord& record);
  void commit_files(const RunInfo& info);

  RecorderOptions options_;
  const model::NameTable* users_;
  std::unique_ptr<OutputSet> output_; ///< before the files written into it: destroyed after them
  std::unique_ptr<AtomicFile> jobs_file_;
  std::string jobs_buffer_;
  std::string timeseries_;
  std::vector<double> last_sample_s_;
  std::unique_ptr<SummaryBuilder> summary_;
  std::unique_ptr<FaultStats> faults_;
  std::unique_ptr<EvalStats> evals_;
  std::unique_ptr<NetworkStats> network_;
  std::unique_ptr<PowerStats> power_;
  std::string nodes_csv_;
  std::unique_ptr<EventTrace> events_;
  std::uint64_t jobs_recorded_ = 0;
  model::DateTimeFormatter date_formatter_;
};

} // namespace acme::metrics
