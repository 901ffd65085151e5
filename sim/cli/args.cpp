#include "sim/cli/args.hpp"

#include <charconv>
#include <cstdio>

#include "sim/model/error.hpp"

namespace acme::cli {

Args::Args(std::vector<std::string> argv, std::string command)
    : argv_(std::move(argv))
    , used_(argv_.size(), false)
    , command_(std::move(command)) {}

void Args::fail(const std::string& what) const {
  throw ConfigError(Location{"acme-sim " + command_, 0, 0}, "", what + " (see acme-sim " + command_ + " --help)");
}

bool Args::flag(const std::string& name, const std::string& alias) {
  bool found = false;
  for (std::size_t i = 0; i < argv_.size(); ++i) {
    if (!used_[i] && (argv_[i] == name || (!alias.empty() && argv_[i] == alias))) {
      used_[i] = true;
      found = true;
    }
  }
  return found;
}

std::optional<std::string> Args::take(const std::string& name) {
  for (std::size_t i = 0; i < argv_.size(); ++i) {
    if (used_[i]) {
      continue;
    }
    if (argv_[i] == name) {
      if (i + 1 >= argv_.size()) {
        fail("option " + name + " needs a value");
      }
      used_[i] = used_[i + 1] = true;
      return argv_[i + 1];
    }
    if (argv_[i].rfind(name + "=", 0) == 0) {
      used_[i] = true;
      return argv_[i].substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

std::optional<std::string> Args::value(const std::string& name, const std::string& alias) {
  std::optional<std::string> last;
  while (auto v = take(name)) {
    last = v;
  }
  if (!alias.empty()) {
    while (auto v = take(alias)) {
      last = v;
    }
  }
  return last;
}

std::vector<std::string> Args::values(const std::string& name) {
  std::vector<std::string> out;
  while (auto v = take(name)) {
    out.push_back(*v);
  }
  return out;
}

std::vector<std::string> Args::positionals(std::size_t max) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < argv_.size(); ++i) {
    if (used_[i]) {
      continue;
    }
    if (argv_[i].size() > 1 && argv_[i][0] == '-') {
      fail("unknown option \"" + argv_[i] + "\"");
    }
    out.push_back(argv_[i]);
  }
  if (out.size() > max) {
    fail("unexpected argument \"" + out[max] + "\"");
  }
  return out;
}

std::uint64_t parse_u64(const Args& args, const std::string& option, const std::string& text) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    args.fail(option + ": expected a non-negative integer, got \"" + text + "\"");
  }
  return value;
}

bool printed_help(const std::vector<std::string>& argv, const char* help) {
  for (const auto& a : argv) {
    if (a == "--help" || a == "-h") {
      std::fputs(help, stdout);
      return true;
    }
  }
  return false;
}

} // namespace acme::cli
