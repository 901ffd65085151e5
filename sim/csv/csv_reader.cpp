#include "sim/csv/csv_reader.hpp"

#include <algorithm>
#include <cstring>

#include "sim/model/error.hpp"

namespace acme::csv {
namespace {

constexpr char QUOTE = '"';

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

bool is_blank_line(std::string_view line) {
  return std::all_of(line.begin(), line.end(), is_blank);
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_blank(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

/// A line without quotes: fields are views into the line.
void split_plain(std::string_view line, const CsvOptions& options, std::vector<std::string_view>& fields) {
  const char* p = line.data();
  const char* end = p + line.size();
  while (true) {
    const void* hit = std::memchr(p, options.delimiter, static_cast<std::size_t>(end - p));
    const char* stop = hit == nullptr ? end : static_cast<const char*>(hit);
    std::string_view field(p, static_cast<std::size_t>(stop - p));
    fields.push_back(options.trim_blanks ? trim(field) : field);
    if (stop == end) {
      return;
    }
    p = stop + 1;
  }
}

} // namespace

/// Splits records. A line without quotes gives views into the line; a record with quotes is unquoted into
/// the record's storage, and a quoted line break continues it on the next line of `lines`.
class RecordParser {
public:
  static void split(std::string_view line, std::size_t line_number, LineReader* lines, CsvRecord& record,
                    const CsvOptions& options) {
    record.line_ = line_number;
    record.error_.clear();
    record.fields_.clear();
    if (std::memchr(line.data(), QUOTE, line.size()) == nullptr) {
      split_plain(line, options, record.fields_);
    } else {
      RecordParser(lines, record, options).parse(line);
    }
  }

private:
  RecordParser(LineReader* lines, CsvRecord& record, const CsvOptions& options)
      : lines_(lines)
      , record_(record)
      , options_(options) {}

  void parse(std::string_view line) {
    record_.storage_.clear();
    record_.spans_.clear();
    text_ = line;
    pos_ = 0;
    while (true) {
      std::size_t start = record_.storage_.size();
      skip_blanks();
      if (pos_ < text_.size() && text_[pos_] == QUOTE) {
        quoted_field();
      } else {
        plain_field();
      }
      record_.spans_.emplace_back(start, record_.storage_.size() - start);
      if (pos_ >= text_.size()) {
        break;
      }
      ++pos_; // the delimiter
    }
    record_.fields_.clear();
    for (auto [offset, size] : record_.spans_) {
      record_.fields_.emplace_back(record_.storage_.data() + offset, size);
    }
  }

  void skip_blanks() {
    while (options_.trim_blanks && pos_ < text_.size() && is_blank(text_[pos_])) {
      ++pos_;
    }
  }

  void plain_field() {
    std::size_t stop = std::min(text_.find(options_.delimiter, pos_), text_.size());
    std::string_view field = text_.substr(pos_, stop - pos_);
    record_.storage_.append(options_.trim_blanks ? trim(field) : field);
    pos_ = stop;
  }

  void quoted_field() {
    ++pos_; // the opening quote
    while (true) {
      std::size_t quote = text_.find(QUOTE, pos_);
      if (quote == std::string_view::npos) {
        record_.storage_.append(text_.substr(pos_));
        if (record_.storage_.size() > LineReader::MAX_LINE_BYTES) {
          record_.error_ = "a quoted field runs over more than 16 MiB; expected a closing '\"'";
          pos_ = text_.size();
          return;
        }
        if (!next_line()) {
          record_.error_ = "a quoted field is not closed; expected a closing '\"'";
          return;
        }
        record_.storage_ += '\n';
        continue;
      }
      record_.storage_.append(text_.substr(pos_, quote - pos_));
      pos_ = quote + 1;
      if (pos_ < text_.size() && text_[pos_] == QUOTE) { // "" stands for one quote
        record_.storage_ += QUOTE;
        ++pos_;
        continue;
      }
      break;
    }
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] != options_.delimiter) {
      record_.error_ = "text after the closing quote of a field; expected a delimiter";
      plain_field();
    }
  }

  bool next_line() {
    std::string_view line;
    if (lines_ == nullptr || !lines_->next(line)) {
      pos_ = text_.size();
      return false;
    }
    text_ = line;
    pos_ = 0;
    return true;
  }

  LineReader* lines_;
  CsvRecord& record_;
  const CsvOptions& options_;
  std::string_view text_;
  std::size_t pos_ = 0;
};

bool read_record(LineReader& lines, CsvRecord& record, const CsvOptions& options) {
  std::string_view line;
  while (lines.next(line)) {
    if (is_blank_line(line) || (options.comment != '\0' && line.front() == options.comment)) {
      continue;
    }
    RecordParser::split(line, lines.line_number(), &lines, record, options);
    return true;
  }
  return false;
}

std::vector<std::string> split_line(std::string_view line, const CsvOptions& options) {
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  CsvRecord record;
  RecordParser::split(line, 1, nullptr, record, options);
  return {record.fields().begin(), record.fields().end()};
}

CsvHeader::CsvHeader(const CsvRecord& record)
    : names_(record.fields().begin(), record.fields().end())
    , line_(record.line()) {}

std::optional<std::size_t> CsvHeader::find(std::string_view name) const {
  auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(it - names_.begin());
}

CsvReader::CsvReader(LineReader lines, CsvOptions options) : lines_(std::move(lines)), options_(options) {
  has_header_ = read_record(lines_, record_, options_);
  if (has_header_) {
    header_ = CsvHeader(record_);
  }
}

std::size_t CsvReader::require(std::string_view column, std::string_view expected) const {
  if (auto where = find(column)) {
    return *where;
  }
  fail_at(header_.line(), "missing column \"" + std::string(column) + "\"; " + std::string(expected));
}

bool CsvReader::next_unchecked() {
  return read_record(lines_, record_, options_);
}

bool CsvReader::next() {
  if (!next_unchecked()) {
    return false;
  }
  if (std::string what = problem(); !what.empty()) {
    fail(what);
  }
  return true;
}

std::string CsvReader::problem() const {
  if (!record_.error().empty()) {
    return record_.error();
  }
  if (record_.size() != header_.size()) {
    return "expected " + std::to_string(header_.size()) + " fields as in the header, got " +
           std::to_string(record_.size());
  }
  return "";
}

void CsvReader::fail(const std::string& what) const {
  fail_at(record_.line(), what);
}

void CsvReader::fail_at(std::size_t line, const std::string& what) const {
  throw ConfigError(Location{lines_.path(), static_cast<int>(line), 0}, "", what);
}

void CsvReader::fail_column(std::size_t column, const std::string& what) const {
  fail("column \"" + header_.names().at(column) + "\": " + what);
}

} // namespace acme::csv
