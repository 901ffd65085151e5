#pragma once

#include <string>
#include <vector>

#include "workloads/replay/line_reader.hpp"
#include "workloads/workload_source.hpp"

namespace acme::workloads {

/// Streams an AcmeTrace job trace (Seren or Kalos schema, matched by column name):
/// job_id,user,node_num,gpu_num,cpu_num,[mem_per_pod_GB,shared_mem_per_pod,]type,state,submit_time,
/// start_time,end_time,[fail_time,stop_time,]duration,queue,gpu_time. Times carry their UTC offset
/// ("2023-03-01 00:18:22+08:00"). A job's service time is its recorded `duration`; its final state its
/// recorded `state`. Emits absolute Unix times in submit_time_s / recorded_start_s (epoch 0).
class AcmeTraceReader {
public:
  AcmeTraceReader(std::string path, model::ClusterId cluster, double utc_offset_s, model::NameTable& users,
                  BadRowPolicy on_bad_row);

  /// The next row as a job (times in Unix seconds), or nullopt at end of file.
  std::optional<model::JobSpec> next();
  std::uint64_t skipped_rows() const { return skipped_; }
  const std::string& path() const { return lines_.path(); }

private:
  enum Column : std::uint8_t {
    JOB_ID,
    USER,
    NODE_NUM,
    GPU_NUM,
    CPU_NUM,
    TYPE,
    STATE,
    SUBMIT,
    START,
    END,
    DURATION,
    COLUMN_COUNT
  };
  void read_header();
  model::JobSpec parse_row();
  [[noreturn]] void bad(Column column, const std::string& what) const;

  LineReader lines_;
  model::ClusterId cluster_;
  double utc_offset_s_;
  model::NameTable* users_;
  BadRowPolicy on_bad_row_;
  std::vector<int> index_; ///< field index of each Column (-1 when absent)
  std::vector<std::string> names_;
  std::vector<std::string_view> fields_;
  std::size_t field_count_ = 0;
  std::uint64_t skipped_ = 0;
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
