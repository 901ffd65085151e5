#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace acme {

/// Where a piece of user input came from. `line` and `column` are 1-based; 0 means unknown.
struct Location {
  std::string file;
  int line = 0;
  int column = 0;

  friend bool operator==(const Location&, const Location&) = default;
};

/// Bad user input (config, trace, CLI). Its what() is the one-line message printed by main:
/// "file:line:col: key.path: what is wrong; expected ...". The CLI exits with code 2.
class ConfigError : public std::runtime_error {
public:
  ConfigError(Location where, std::string key_path, const std::string& message);

  const Location& get_location() const { return where_; }
  const std::string& get_key_path() const { return key_path_; }

private:
  Location where_;
  std::string key_path_;
};

/// Formats "file:line:col: key: message" leaving out the parts that are unknown.
std::string format_located(const Location& where, const std::string& key_path, const std::string& message);

/// `message` fit for one line of a terminal: control characters escaped (\n, \xNN), quoted values over
/// 120 characters shortened to their head and tail with their length, at most about 1,000 characters.
/// Every ConfigError's what() goes through it, so an echoed value can neither break nor flood the line.
std::string one_line(std::string_view message);

/// `text` as is when short; else its first 80 and last 20 characters around "...", with its length: for
/// echoing a value in a message or a location.
std::string excerpt(std::string_view text);

/// The shortest text that reads back as `value` ("3600", "0.25", "1e+300"), for numbers in messages.
std::string number_text(double value);

/// The closest candidate by edit distance, or "" when none is close enough to suggest.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

/// "a, b, c" (sorted as given) for "expected one of: ..." messages.
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");

} // namespace acme
