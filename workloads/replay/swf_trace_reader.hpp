#pragma once

#include <string>
#include <vector>

#include "sim/csv/line_reader.hpp"
#include "workloads/replay/trace_reader.hpp"

namespace acme::workloads {

/// Streams a log in the Standard Workload Format (SWF v2.2, Feitelson et al., Parallel Workloads
/// Archive, https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): `;` header lines, then one job
/// per line with 18 whitespace-separated numeric fields, -1 meaning unknown:
///   1 job number, 2 submit time (s after the header's UnixStartTime), 3 wait time, 4 run time,
///   5 allocated processors, 6 average CPU time, 7 used memory, 8 requested processors, 9 requested
///   time, 10 requested memory, 11 status, 12 user, 13 group, 14 executable, 15 queue, 16 partition,
///   17 preceding job, 18 think time.
/// Mapping to a job (times in Unix seconds, epoch 0):
///   - submit_time_s = UnixStartTime + submit; recorded_start_s = submit + wait (unknown when wait is -1);
///   - duration_s = run time (service time; -1 is a bad row: the job cannot be replayed);
///   - gpus = allocated processors (requested processors when -1): one processor is one GPU slot. On an
///     `hpc` cluster (sim/config: N nodes of P processors) a job of up to P processors shares a node,
///     a larger one takes ceil(procs / P) whole nodes; with P = 1 (the default) that is the classic
///     processor-pool model;
///   - requested_time_s = requested time (unknown when -1);
///   - final state from status: 1 COMPLETED, 0 FAILED, 5 CANCELLED, partial executions 2 and 3 COMPLETED,
///     4 FAILED, -1 (unknown) COMPLETED; any other value is a bad row;
///   - user = the user number as written (field 12); type OTHER; name = the job number.
/// The header's MaxNodes/MaxProcs size an hpc platform (`nodes_from:` in the cluster config); this reader
/// only needs UnixStartTime (default 0). Rows must be in submit order up to the trace reorder window.
class SwfTraceReader final : public TraceReader {
public:
  static constexpr std::size_t FIELD_COUNT = 18;

  explicit SwfTraceReader(const TraceFile& file);

  /// The header's UnixStartTime (0 until the header is read, with the first job).
  double unix_start_time_s() const { return unix_start_s_; }

private:
  /// Header lines (`;`) before the first job give UnixStartTime; later ones are comments.
  bool read_row() override;
  std::size_t row_line() const override { return lines_.line_number(); }
  std::optional<model::JobSpec> parse_row() override;
  const char* id_column() const override { return "job_number"; }
  /// Partial executions (status 2, 3, 4) of one job repeat its number.
  bool may_repeat_id() const override;
  void read_header_line(std::string_view line);

  csv::LineReader lines_;
  std::vector<std::string_view> fields_;
  std::vector<double> values_;
  double unix_start_s_ = 0.0;
  bool seen_job_ = false;
};

} // namespace acme::workloads
