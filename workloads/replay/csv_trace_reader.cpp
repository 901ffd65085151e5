#include "workloads/replay/csv_trace_reader.hpp"

#include "sim/model/error.hpp"

namespace acme::workloads {

CsvTraceReader::CsvTraceReader(TraceFile file, CsvTraceSchema schema)
    : TraceReader(std::move(file))
    , in_(open_lines(path()))
    , schema_(schema) {
  if (!in_.has_header()) {
    in_.fail_at(1, schema_.empty_message);
  }
  for (const TraceColumn& column : schema_.columns) {
    index_.push_back(column.required ? in_.require(column.name, schema_.missing_hint) : in_.find(column.name));
  }
}

std::string_view CsvTraceReader::field(std::size_t c) const {
  return index_[c] ? in_.field(*index_[c]) : std::string_view{};
}

void CsvTraceReader::bad(std::size_t c, const std::string& what) const {
  bad_column(schema_.columns[c].name, what);
}

bool CsvTraceReader::read_row() {
  if (!in_.next_unchecked()) {
    return false;
  }
  ++rows_;
  if (std::string problem = in_.problem(); !problem.empty()) {
    throw BadRow{problem};
  }
  return true;
}

} // namespace acme::workloads
