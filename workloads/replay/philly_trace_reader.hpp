#pragma once

#include <string>
#include <vector>

#include "workloads/workload_source.hpp"

namespace acme::workloads {

/// Reads the Microsoft Philly job table as the Pollux/AdaptDL simulator tabulates it
/// (data/traces/philly_jobs_pollux.csv; Jeon et al., ATC'19 trace; Qiao et al., OSDI'21):
/// `timestamp,duration,num_gpus,gpu_time,cluster`, columns matched by name (`gpu_time` and `cluster`
/// optional). The rows are not sorted: the reader loads the whole file (82k rows, a few MB) and emits
/// the jobs by submit time, ties in file order.
/// Mapping to a job (times in Unix seconds, epoch 0):
///   - submit_time_s = `timestamp` ("2017-10-09 07:01:55"); it carries no UTC offset and is read in the
///     cluster's `utc_offset` (UTC unless the cluster config says otherwise);
///   - duration_s = `duration` (s, service time); gpus = `num_gpus` (0: a CPU job);
///   - `gpu_time` when present must equal duration x num_gpus (catches shifted columns);
///   - user = `cluster` (Philly's virtual cluster, the unit of its quotas); type OTHER; state COMPLETED
///     (the table has no final state); no recorded start (the table has no start times);
///   - name = the row's number in the file (1 = first data row).
class PhillyTraceReader {
public:
  /// Reads and sorts the whole file. Throws ConfigError (file:line, column) on a malformed row unless
  /// bad rows are skipped.
  PhillyTraceReader(std::string path, model::ClusterId cluster, double utc_offset_s, model::NameTable& users,
                    BadRowPolicy on_bad_row);

  /// The next job by submit time (times in Unix seconds), or nullopt after the last.
  std::optional<model::JobSpec> next();
  std::uint64_t skipped_rows() const { return skipped_; }
  /// Jobs read (rows that were not skipped).
  std::size_t jobs() const { return rows_.size(); }

  /// One row, compact (a whole table is held and sorted): 32 bytes instead of a JobSpec.
  struct Row {
    double submit_time_s = 0.0;
    double duration_s = 0.0;
    std::uint32_t gpus = 0;
    model::UserId user{};
    std::uint32_t row = 0; ///< number in the file (1 = first data row); breaks ties in file order
  };

private:
  void read(const std::string& path, double utc_offset_s, model::NameTable& users, BadRowPolicy on_bad_row);

  model::ClusterId cluster_;
  std::vector<Row> rows_;
  std::size_t next_ = 0;
  std::uint64_t skipped_ = 0;
};

} // namespace acme::workloads
