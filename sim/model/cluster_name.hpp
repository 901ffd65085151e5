#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace acme::model {

/// Longest cluster name: it names the cluster in every output and in file names (`gen`, `export`).
inline constexpr std::size_t MAX_CLUSTER_NAME_CHARS = 64;

/// What is wrong with `name` as a cluster name ("" when nothing): not empty, at most 64 characters,
/// printable, without a path separator, so that it can be part of a file name.
inline std::string cluster_name_problem(std::string_view name) {
  if (name.empty()) {
    return "expected a cluster name such as \"seren\", got an empty name";
  }
  if (name.size() > MAX_CLUSTER_NAME_CHARS) {
    return "expected a cluster name of at most 64 characters, got " + std::to_string(name.size());
  }
  for (char c : name) {
    if (static_cast<unsigned char>(c) < ' ' || c == '\x7f' || c == '/' || c == '\\') {
      return "expected a cluster name without control characters, '/' or '\\', got \"" + std::string(name) + "\"";
    }
  }
  return "";
}

} // namespace acme::model
