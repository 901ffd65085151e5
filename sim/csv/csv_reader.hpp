#pragma once

#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/csv/line_reader.hpp"

namespace acme::csv {

/// How records are split. The defaults are RFC 4180 (comma, `"` quotes, `""` inside quotes).
struct CsvOptions {
  char delimiter = ',';
  bool trim_blanks = false; ///< drop spaces and tabs around each field (outside quotes)
  char comment = '\0';      ///< a line whose first character this is is skipped ('\0': none)
};

/// One record: its fields and the line it starts on. The fields stay valid until the next record is read.
class CsvRecord {
public:
  std::size_t size() const { return fields_.size(); }
  std::string_view operator[](std::size_t i) const { return fields_[i]; }
  const std::vector<std::string_view>& fields() const { return fields_; }
  /// Line (1-based) the record starts on.
  std::size_t line() const { return line_; }
  /// What is wrong with the record's quoting ("" when nothing): a quote left open, text after a closing quote.
  const std::string& error() const { return error_; }

private:
  friend class RecordParser;

  std::vector<std::string_view> fields_;
  std::vector<std::pair<std::size_t, std::size_t>> spans_; ///< (offset, size) of each field in storage_
  std::string storage_;                                    ///< unquoted text of a record that had quotes
  std::size_t line_ = 0;
  std::string error_;
};

/// Reads the next record into `record`, skipping blank lines (nothing but spaces and tabs) and comment
/// lines; false at the end of the input. A field that starts with `"` is quoted: it may hold delimiters,
/// line breaks and doubled quotes (`""` for one). A quote inside an unquoted field is kept as written.
bool read_record(LineReader& lines, CsvRecord& record, const CsvOptions& options = {});

/// The fields of one line (a final '\r' dropped), quoted as read_record quotes them; for callers that
/// read their lines themselves. Badly quoted text gives the fields as far as they could be read.
std::vector<std::string> split_line(std::string_view line, const CsvOptions& options = {});

/// `text` as a number of type T, the whole text and nothing else (std::from_chars); nullopt otherwise.
template <class T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

/// The column names of a header record and where they are.
class CsvHeader {
public:
  CsvHeader() = default;
  explicit CsvHeader(const CsvRecord& record);

  /// Position of the first column called `name`; nullopt when there is none.
  std::optional<std::size_t> find(std::string_view name) const;
  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  /// Line of the header row.
  std::size_t line() const { return line_; }

private:
  std::vector<std::string> names_;
  std::size_t line_ = 0;
};

/// A CSV input with a header row: records read by column name, errors located at file:line as
/// ConfigError ("trace.csv:3: column "gpu_num": expected a non-negative integer, got "n/a"").
class CsvReader {
public:
  /// Reads the header row: the first record (blank and comment lines skipped). has_header() tells
  /// whether there was one; the caller says what it expected in an empty input.
  explicit CsvReader(LineReader lines, CsvOptions options = {});

  bool has_header() const { return has_header_; }
  const CsvHeader& header() const { return header_; }
  std::optional<std::size_t> find(std::string_view column) const { return header_.find(column); }
  /// Position of a required column. Absent: fails at the header's line with
  /// `missing column "COLUMN"; EXPECTED`.
  std::size_t require(std::string_view column, std::string_view expected) const;

  /// Reads the next record; false at the end. Fails on a malformed record (see problem()).
  bool next();
  /// Reads the next record without checking it: problem() says what is wrong (for readers that skip bad rows).
  bool next_unchecked();
  /// What is wrong with the current record ("" when nothing): its quoting, or a number of fields other than the
  /// header's ("expected 5 fields as in the header, got 4").
  std::string problem() const;

  const CsvRecord& record() const { return record_; }
  std::string_view field(std::size_t column) const { return record_[column]; }
  /// Line of the current record (of the header before the first record).
  std::size_t line() const { return record_.line(); }
  /// Lines read so far (the last line's number).
  std::size_t lines_read() const { return lines_.line_number(); }
  const std::string& path() const { return lines_.path(); }

  /// Throws ConfigError "FILE:LINE: WHAT" at the current record.
  [[noreturn]] void fail(const std::string& what) const;
  /// Throws ConfigError "FILE:LINE: WHAT" at `line` (0: no line).
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const;
  /// Throws ConfigError "FILE:LINE: column "NAME": WHAT" at the current record.
  [[noreturn]] void fail_column(std::size_t column, const std::string& what) const;

private:
  LineReader lines_;
  CsvOptions options_;
  CsvHeader header_;
  CsvRecord record_;
  bool has_header_ = false;
};

} // namespace acme::csv
