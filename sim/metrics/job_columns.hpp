#pragma once

// jobs.csv's columns, declared once: each column's name, meaning and writer in one table, from which both
// the header and every row come (they cannot fall out of step).

#include <string>
#include <string_view>
#include <vector>

#include "sim/metrics/job_record.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/name_table.hpp"

namespace acme::metrics {

class FaultStats;

/// What a column's writer reads besides the job's record.
struct JobRowContext {
  const JobRecord& record;
  const ClusterInfo& cluster;
  const model::NameTable& users;
  const FaultStats& faults;        ///< names the failure categories
  double epoch_unix_s = 0.0;       ///< simulated time 0 in Unix seconds
  model::DateTimeFormatter& dates; ///< caches the day it formatted last
  bool started = false;            ///< ever_started(record)
  double duration_s = 0.0;         ///< from its first start to its end (0 when it never started)
};

/// One column: its header name, what it holds, and the writer of its cell (the value only, no separator).
struct JobColumn {
  const char* name;
  const char* meaning;
  void (*write)(std::string& out, JobRowContext& c);
};

/// jobs.csv's header line (without the line break); `network`: with the fluid network model's columns.
std::string jobs_header(bool network);
/// Appends the record's row, line break included.
void append_job_row(std::string& out, JobRowContext& c, bool network);
/// Every column, the network model's last (for documentation and tests).
std::vector<JobColumn> job_columns(bool network);

} // namespace acme::metrics
