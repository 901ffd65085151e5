#pragma once

#include <stdexcept>
#include <string>
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

/// The closest candidate by edit distance, or "" when none is close enough to suggest.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

/// "a, b, c" (sorted as given) for "expected one of: ..." messages.
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");

} // namespace acme
