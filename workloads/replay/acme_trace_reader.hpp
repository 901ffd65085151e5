#pragma once

#include <string>

#include "workloads/replay/csv_trace_reader.hpp"

namespace acme::workloads {

/// Streams an AcmeTrace job trace (Seren or Kalos schema, matched by column name):
/// job_id,user,node_num,gpu_num,cpu_num,[mem_per_pod_GB,shared_mem_per_pod,]type,state,submit_time,
/// start_time,end_time,[fail_time,stop_time,]duration,queue,gpu_time. Times carry their UTC offset
/// ("2023-03-01 00:18:22+08:00"). A job's service time is its recorded `duration`; its final state its
/// recorded `state`. Emits absolute Unix times in submit_time_s / recorded_start_s (epoch 0); times without an
/// offset are read in the cluster's.
class AcmeTraceReader final : public CsvTraceReader {
public:
  /// Reads the header; a missing required column fails there (ConfigError at line 1).
  explicit AcmeTraceReader(const TraceFile& file);

private:
  std::optional<model::JobSpec> parse_row() override;
  const char* id_column() const override { return "job_id"; }
  std::uint32_t count(std::size_t c) const;
  double time(std::size_t c) const;
  /// The optional model_params, tp and pp columns.
  void parse_layout(model::JobSpec& job) const;
};

/// Which AcmeTrace schema to write.
enum class AcmeSchema : std::uint8_t { SEREN, KALOS };

/// Formats one job as a row of the AcmeTrace schema. Used by `acme-sim gen`.
struct AcmeRowWriter {
  AcmeSchema schema = AcmeSchema::SEREN;
  double epoch_unix_s = 0.0;
  double utc_offset_s = 0.0;
  static std::string header(AcmeSchema schema);
  void append_row(const model::JobSpec& job, const model::NameTable& users, std::string& out) const;
};

} // namespace acme::workloads
