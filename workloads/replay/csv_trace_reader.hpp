#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/csv/csv_reader.hpp"
#include "workloads/replay/trace_reader.hpp"

namespace acme::workloads {

/// A column a CSV trace format reads, matched by name in the header row.
struct TraceColumn {
  const char* name;
  bool required;
};

/// What a CSV trace format expects of its file.
struct CsvTraceSchema {
  std::span<const TraceColumn> columns;
  const char* empty_message; ///< the error for a file without a header row
  const char* missing_hint;  ///< what the error for a missing required column expects ("expected ...")
};

/// A trace format in CSV with a header row (RFC 4180 quoting, CRLF, blank lines skipped): columns found by
/// name, rows with another number of fields than the header are bad rows. A format derives from it, names its
/// columns and implements parse_row.
class CsvTraceReader : public TraceReader {
protected:
  /// Opens the file and reads its header; a missing required column fails at the header (ConfigError).
  CsvTraceReader(TraceFile file, CsvTraceSchema schema);

  /// Text of schema column `c` in the current row; "" when the column is optional and absent.
  std::string_view field(std::size_t c) const;
  /// Whether the header has schema column `c`.
  bool has_column(std::size_t c) const { return index_[c].has_value(); }
  /// Throws BadRow "column "NAME": WHAT" for schema column `c`.
  [[noreturn]] void bad(std::size_t c, const std::string& what) const;
  /// Number of the current row among the data rows of the file (1 = the first), bad rows included.
  std::uint64_t row_number() const { return rows_; }

private:
  bool read_row() final;
  std::size_t row_line() const final { return in_.line(); }

  csv::CsvReader in_;
  CsvTraceSchema schema_;
  std::vector<std::optional<std::size_t>> index_; ///< field of each schema column
  std::uint64_t rows_ = 0;
};

} // namespace acme::workloads
