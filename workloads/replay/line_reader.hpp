#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace acme::workloads {

/// Reads a text file line by line through a large buffer, keeping line numbers for error messages.
/// Also splits a line into fields on a delimiter (no quoting: trace files do not quote).
class LineReader {
public:
  /// Throws ConfigError when the file cannot be opened.
  explicit LineReader(std::string path);

  /// The next line without its end-of-line, or false at end of file.
  bool next(std::string_view& line);
  std::size_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

  /// Splits on `delimiter`; with `collapse` runs of the delimiter count as one (SWF's blanks).
  static void split(std::string_view line, char delimiter, std::vector<std::string_view>& fields,
                    bool collapse = false);

private:
  bool refill();

  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::string carry_;
  std::size_t line_number_ = 0;
};

} // namespace acme::workloads
