#include "sim/cli/acmetrace_export.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "sim/csv/csv_reader.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/cluster_name.hpp"
#include "sim/model/error.hpp"
#include "sim/model/job.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/text_escape.hpp"
#include "workloads/replay/acme_trace_reader.hpp"
#include "workloads/synthetic/trace_rows.hpp"

namespace acme::cli {
namespace {

constexpr std::size_t FLUSH_BYTES = std::size_t{1} << 20;

/// The column names of an AcmeTrace header line ("a,b,c\n").
std::vector<std::string> schema_columns(workloads::AcmeSchema schema) {
  std::string header = workloads::AcmeRowWriter::header(schema);
  std::vector<std::string> names;
  std::string name;
  for (char c : header) {
    if (c == ',' || c == '\n') {
      names.push_back(name);
      name.clear();
    } else {
      name += c;
    }
  }
  return names;
}

/// What a cell of an AcmeTrace column must hold, checked before it is copied: the notebook reads these.
enum class CellKind { TEXT, COUNT, AMOUNT, DATETIME };

CellKind cell_kind(std::string_view column) {
  for (std::string_view name : {"submit_time", "start_time", "end_time", "fail_time", "stop_time"}) {
    if (column == name) {
      return CellKind::DATETIME;
    }
  }
  for (std::string_view name : {"node_num", "gpu_num", "cpu_num"}) {
    if (column == name) {
      return CellKind::COUNT;
    }
  }
  for (std::string_view name : {"duration", "queue", "gpu_time", "mem_per_pod_GB", "shared_mem_per_pod"}) {
    if (column == name) {
      return CellKind::AMOUNT;
    }
  }
  return CellKind::TEXT;
}

/// "" when `cell` fits `kind` (an empty cell always does: AcmeTrace leaves unknown values empty), else the
/// expectation to report.
std::string cell_problem(CellKind kind, std::string_view cell) {
  if (cell.empty() || kind == CellKind::TEXT) {
    return "";
  }
  if (kind == CellKind::COUNT) {
    return csv::parse_number<std::uint64_t>(cell) ? "" : "expected a non-negative integer";
  }
  if (kind == CellKind::AMOUNT) {
    auto value = csv::parse_number<double>(cell);
    return value && std::isfinite(*value) && *value >= 0 ? "" : "expected a finite non-negative number";
  }
  return model::parse_datetime(cell) ? "" : "expected a date-time such as 2023-03-01 00:18:22+08:00";
}

/// One cluster's trace while it is being written.
struct TraceSink {
  std::vector<std::optional<std::size_t>> source; ///< jobs.csv column of each schema column (none: empty)
  std::vector<CellKind> kinds;                    ///< what each schema column's cells must hold
  std::size_t type_at = 0;                        ///< position of `type` in the schema
  std::unique_ptr<metrics::AtomicFile> file;
  std::string buffer;
  ExportedTrace info;
};

class Exporter {
public:
  Exporter(const std::string& jobs_csv, std::string out_dir) : reader_(open(jobs_csv)), out_dir_(std::move(out_dir)) {
    const char* expected = "expected a jobs.csv written by acme-sim run";
    cluster_ = reader_.require("cluster", expected);
    type_ = reader_.require("type", expected);
    for (const auto& name : schema_columns(workloads::AcmeSchema::SEREN)) {
      reader_.require(name, expected);
    }
    reject_ = reader_.find("reject_reason");
  }

  ExportResult run() {
    while (reader_.next()) {
      if (reject_ && !reader_.field(*reject_).empty()) {
        ++result_.rejected;
        continue;
      }
      append_row(sink(cluster_name()));
    }
    for (const auto& cluster : order_) {
      TraceSink& s = sinks_.at(cluster);
      s.file->write(s.buffer);
      s.file->commit();
      result_.traces.push_back(s.info);
    }
    remove_earlier_traces();
    return result_;
  }

private:
  /// A folder holds one export, as a run folder holds one run: trace files of clusters this export did
  /// not write (an earlier export of another run) are removed once the new ones are committed.
  void remove_earlier_traces() const {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(out_dir_, ec)) {
      std::string name = entry.path().filename().string();
      constexpr std::string_view PREFIX = "trace_";
      constexpr std::string_view SUFFIX = ".csv";
      bool trace = name.size() > PREFIX.size() + SUFFIX.size() && name.starts_with(PREFIX) && name.ends_with(SUFFIX);
      if (trace && !sinks_.contains(name.substr(PREFIX.size(), name.size() - PREFIX.size() - SUFFIX.size()))) {
        std::filesystem::remove(entry.path(), ec);
      }
    }
  }

  static csv::CsvReader open(const std::string& path) {
    auto lines = csv::LineReader::from_file(path);
    if (!lines.is_open()) {
      throw ConfigError(Location{path, 0, 0}, "",
                        "cannot read (" + std::string(std::strerror(lines.open_error())) +
                            "); expected the jobs.csv of a run folder written by acme-sim run");
    }
    csv::CsvReader reader(std::move(lines));
    if (!reader.has_header()) {
      reader.fail_at(0, "is empty; expected a jobs.csv written by acme-sim run");
    }
    return reader;
  }

  /// The row's cluster: a cluster name (it becomes part of a file name), one of at most limits::MAX_CLUSTERS.
  std::string cluster_name() const {
    std::string name(reader_.field(cluster_));
    if (std::string problem = model::cluster_name_problem(name); !problem.empty()) {
      reader_.fail_column(cluster_, problem);
    }
    if (!sinks_.contains(name) && sinks_.size() >= model::limits::MAX_CLUSTERS) {
      reader_.fail_column(cluster_, "expected at most " + std::to_string(model::limits::MAX_CLUSTERS) +
                                        " clusters in a run, got a new one \"" + name + "\"");
    }
    return name;
  }

  TraceSink& sink(const std::string& cluster) {
    auto [it, fresh] = sinks_.try_emplace(cluster);
    if (!fresh) {
      return it->second;
    }
    TraceSink& s = it->second;
    std::vector<std::string> columns = schema_columns(workloads::synthetic::schema_for(cluster));
    for (std::size_t i = 0; i < columns.size(); ++i) {
      s.source.push_back(reader_.find(columns[i]));
      s.kinds.push_back(cell_kind(columns[i]));
      if (columns[i] == "type") {
        s.type_at = i;
      }
    }
    s.info = {cluster, (std::filesystem::path(out_dir_) / ("trace_" + cluster + ".csv")).string(), 0};
    try {
      std::filesystem::create_directories(out_dir_);
      s.file = std::make_unique<metrics::AtomicFile>(s.info.path);
    } catch (const std::exception& e) {
      throw ConfigError(Location{"acme-sim export", 0, 0}, "",
                        "--acmetrace " + out_dir_ + ": cannot write " + s.info.path + " (" + e.what() +
                            "); expected a writable folder");
    }
    s.buffer = workloads::AcmeRowWriter::header(workloads::synthetic::schema_for(cluster));
    order_.push_back(cluster);
    return s;
  }

  void append_row(TraceSink& s) {
    auto type = model::parse_job_type(reader_.field(type_));
    if (!type) {
      reader_.fail_column(type_, "expected one of Pretrain, SFT, MLLM, Eval, Evaluation, Debug, Other, got \"" +
                                     std::string(reader_.field(type_)) + "\"");
    }
    for (std::size_t i = 0; i < s.source.size(); ++i) {
      if (i > 0) {
        s.buffer += ',';
      }
      if (i == s.type_at) {
        s.buffer += model::acmetrace_name(*type);
      } else if (s.source[i]) {
        std::string_view cell = reader_.field(*s.source[i]);
        if (std::string problem = cell_problem(s.kinds[i], cell); !problem.empty()) {
          reader_.fail_column(*s.source[i], problem + ", got \"" + excerpt(cell) + "\"");
        }
        model::append_csv_field(s.buffer, cell);
      }
    }
    s.buffer += '\n';
    ++s.info.rows;
    if (s.buffer.size() >= FLUSH_BYTES) {
      s.file->write(s.buffer);
      s.buffer.clear();
    }
  }

  csv::CsvReader reader_;
  std::string out_dir_;
  std::size_t cluster_ = 0;
  std::size_t type_ = 0;
  std::optional<std::size_t> reject_;
  std::map<std::string, TraceSink> sinks_;
  std::vector<std::string> order_;
  ExportResult result_;
};

} // namespace

ExportResult export_acmetrace(const std::string& jobs_csv, const std::string& out_dir) {
  return Exporter(jobs_csv, out_dir).run();
}

} // namespace acme::cli
