#include "sim/cli/acmetrace_export.hpp"

#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "sim/csv/csv_reader.hpp"
#include "sim/metrics/atomic_file.hpp"
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

/// One cluster's trace while it is being written.
struct TraceSink {
  std::vector<std::optional<std::size_t>> source; ///< jobs.csv column of each schema column (none: empty)
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
    return result_;
  }

private:
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
        model::append_csv_field(s.buffer, reader_.field(*s.source[i]));
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
