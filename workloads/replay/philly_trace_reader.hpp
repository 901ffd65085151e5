#pragma once

#include <string>

#include "workloads/replay/csv_trace_reader.hpp"

namespace acme::workloads {

/// Reads the Microsoft Philly job table as the Pollux/AdaptDL simulator tabulates it
/// (data/traces/philly_jobs_pollux.csv; Jeon et al., ATC'19 trace; Qiao et al., OSDI'21):
/// `timestamp,duration,num_gpus,gpu_time,cluster`, columns matched by name (`gpu_time` and `cluster`
/// optional). The rows are not sorted: the format is registered behind a SortedTrace (82k rows, a few MB),
/// which emits the jobs by submit time, ties in file order.
/// Mapping to a job (times in Unix seconds, epoch 0):
///   - submit_time_s = `timestamp` ("2017-10-09 07:01:55"); it carries no UTC offset and is read in the
///     cluster's `utc_offset` (UTC unless the cluster config says otherwise);
///   - duration_s = `duration` (s, service time); gpus = `num_gpus` (0: a CPU job);
///   - `gpu_time` when present must equal duration x num_gpus (catches shifted columns);
///   - user = `cluster` (Philly's virtual cluster, the unit of its quotas); type OTHER; state COMPLETED
///     (the table has no final state); no recorded start (the table has no start times);
///   - name = the row's number in the file (1 = first data row).
class PhillyTraceReader final : public CsvTraceReader {
public:
  explicit PhillyTraceReader(const TraceFile& file);

private:
  std::optional<model::JobSpec> parse_row() override;
  const char* id_column() const override { return nullptr; } // jobs are named by their row number
  double seconds(std::size_t c) const;
};

} // namespace acme::workloads
