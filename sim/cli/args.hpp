#pragma once

#include <optional>
#include <string>
#include <vector>

namespace acme::cli {

/// A small command-line reader: flags with values, repeated flags, positionals; errors name the
/// argument (exit code 2 in main).
class Args {
public:
  Args(std::vector<std::string> argv, std::string command);

  /// True (and consumed) when `flag` (or `alias`) is present.
  bool flag(const std::string& name, const std::string& alias = "");
  /// The value of `--name VALUE` / `--name=VALUE` (last one wins).
  std::optional<std::string> value(const std::string& name, const std::string& alias = "");
  /// Every value of a repeated option.
  std::vector<std::string> values(const std::string& name);
  /// Remaining positionals; fails on leftover options or more than `max` positionals.
  std::vector<std::string> positionals(std::size_t max);

  [[noreturn]] void fail(const std::string& what) const;

private:
  std::optional<std::string> take(const std::string& name);

  std::vector<std::string> argv_;
  std::vector<bool> used_;
  std::string command_;
};

/// Prints `help` and returns true when `--help` or `-h` is anywhere in `argv` (a command then returns 0).
bool printed_help(const std::vector<std::string>& argv, const char* help);

std::uint64_t parse_u64(const Args& args, const std::string& option, const std::string& text);

} // namespace acme::cli
