#include "workloads/replay/trace_reader.hpp"

#include <cstring>

#include "sim/model/assert.hpp"
#include "sim/model/error.hpp"

namespace acme::workloads {

void bad_column(std::string_view column, const std::string& what) {
  throw BadRow{"column \"" + std::string(column) + "\": " + what};
}

TraceReader::TraceReader(TraceFile file) : file_(std::move(file)) {
  ACME_ASSERT(file_.users != nullptr, "a trace reader interns user names");
}

csv::LineReader TraceReader::open_lines(const std::string& path) {
  csv::LineReader lines = csv::LineReader::from_file(path);
  if (!lines.is_open()) {
    throw ConfigError(Location{path, 0, 0}, "",
                      std::string("cannot open trace: ") + std::strerror(lines.open_error()) +
                          "; expected a readable file");
  }
  return lines;
}

std::optional<model::JobSpec> TraceReader::next() {
  while (true) {
    try {
      if (!read_row()) {
        return std::nullopt;
      }
      if (auto job = parse_row()) {
        return job;
      }
    } catch (const BadRow& e) {
      if (file_.on_bad_row != BadRowPolicy::SKIP) {
        throw ConfigError(Location{file_.path, static_cast<int>(row_line()), 0}, "", e.message);
      }
      ++skipped_;
    }
  }
}

} // namespace acme::workloads
