#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "sim/csv/line_reader.hpp"
#include "workloads/workload_source.hpp"

namespace acme::workloads {

/// One trace file to read for one cluster.
struct TraceFile {
  std::string path; ///< resolved path
  model::ClusterId cluster{};
  double utc_offset_s = 0.0; ///< the cluster's UTC offset, for times the trace writes without one
  model::NameTable* users = nullptr;
  BadRowPolicy on_bad_row = BadRowPolicy::ERROR;
};

/// A malformed trace row, thrown by a format while it reads or parses the row. TraceReader turns it into a
/// ConfigError at the row's file:line, or skips and counts the row (`on_bad_row: skip`).
struct BadRow {
  std::string message;
};

/// Throws BadRow "column "COLUMN": WHAT".
[[noreturn]] void bad_column(std::string_view column, const std::string& what);

// The bounds every format's jobs meet (sim/model/limits.hpp), checked by each format where it parses the
// column, so that the message names it. Each throws BadRow.

/// `unix_s` is a time in the years limits::MIN_YEAR..MAX_YEAR.
void check_trace_time(double unix_s, std::string_view column, std::string_view text);
/// `seconds` is a duration in [0, limits::MAX_JOB_DURATION_S].
double check_trace_duration(double seconds, std::string_view column, std::string_view text);
/// `count` is a whole number of GPUs (or processors) in [0, limits::MAX_JOB_GPUS].
std::uint32_t check_trace_gpus(double count, std::string_view column, std::string_view text);

/// The row loop every trace format shares: rows one after another, each turned into a job, and the
/// on_bad_row policy. A format says how lines become rows (read_row: CSV with a header, SWF's blank-separated
/// fields, ...) and how a row becomes a job (parse_row).
class TraceReader {
public:
  virtual ~TraceReader() = default;

  /// The next job (times in Unix seconds), or nullopt at the end of the file. Throws ConfigError (file:line,
  /// column) on a malformed row unless bad rows are skipped.
  std::optional<model::JobSpec> next();
  /// Malformed rows skipped so far.
  virtual std::uint64_t skipped_rows() const { return skipped_; }
  const std::string& path() const { return file_.path; }

protected:
  explicit TraceReader(TraceFile file);
  TraceReader(TraceReader&&) = default;

  /// The lines of the trace at `path`. Throws ConfigError "PATH: cannot open trace: REASON; expected a readable
  /// file" when it cannot be opened.
  static csv::LineReader open_lines(const std::string& path);
  const TraceFile& file() const { return file_; }
  model::NameTable& users() const { return *file_.users; }

  /// Reads the next row; false at the end of the file. May throw BadRow (a row that cannot be split) or
  /// ConfigError (a fault that is not a row's: a bad header).
  virtual bool read_row() = 0;
  /// Line of the row read last, for messages.
  virtual std::size_t row_line() const = 0;
  /// The row as a job (cluster set, times in Unix seconds); nullopt for a valid row that is not replayed.
  /// Throws BadRow when the row is malformed.
  virtual std::optional<model::JobSpec> parse_row() = 0;
  /// The column holding a job's id (its name): ids must be present and unique within the file. nullptr
  /// (the default) when the format numbers the rows itself.
  virtual const char* id_column() const { return nullptr; }
  /// Whether the current row may repeat an earlier row's id (SWF partial executions of one job).
  virtual bool may_repeat_id() const { return false; }

private:
  void check_id(const model::JobSpec& job);

  TraceFile file_;
  std::uint64_t skipped_ = 0;
  /// Ids seen so far, by a 64-bit hash (8 bytes a job instead of its text), with the line they were on.
  std::unordered_map<std::uint64_t, std::size_t> ids_;
};

} // namespace acme::workloads
