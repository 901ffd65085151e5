#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace acme::csv {

/// Reads text line by line, a file through a large buffer or a text in memory, keeping 1-based line
/// numbers for messages. A line comes without its end of line ("\n" or "\r\n"); a UTF-8 byte-order mark
/// before the first line is dropped.
class LineReader {
public:
  /// The longest line read (16 MiB): a file without line breaks is not a trace.
  static constexpr std::size_t MAX_LINE_BYTES = std::size_t{16} << 20;

  /// Reads the file at `path`. When it cannot be opened, or is not a regular file (a folder, a device, a
  /// pipe), is_open() is false and open_problem() says why: the caller says what it expected.
  static LineReader from_file(std::string path);
  /// Reads `text`, which must outlive the reader; `name` names it in messages.
  static LineReader from_text(std::string_view text, std::string name);

  bool is_open() const { return open_error_ == 0; }
  int open_error() const { return open_error_; }
  /// Why it could not be opened, for messages: "it is a folder", "not a regular file" or strerror's text.
  std::string open_problem() const;

  /// The next line, valid until the next call; false at the end of the input. Throws ConfigError
  /// (PATH:LINE) when the file cannot be read on or a line is longer than MAX_LINE_BYTES.
  bool next(std::string_view& line);
  /// Number of the line last returned (0 before the first).
  std::size_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

private:
  explicit LineReader(std::string path);
  bool refill();
  void check_length(std::size_t bytes) const;

  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  int open_error_ = 0;
  std::vector<char> buffer_;
  const char* data_ = nullptr; ///< the buffer, or the text in memory
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::string carry_;
  std::size_t line_number_ = 0;
};

} // namespace acme::csv
