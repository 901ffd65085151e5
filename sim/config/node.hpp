#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/model/error.hpp"
#include "sim/model/limits.hpp"

namespace acme::config {

/// A value a `--set key=value` (or a study's grid) put into the document, and where it was given: errors in
/// it or below it are located there, not in the config file.
struct OverrideRoot {
  YAML::Node value;
  Location where; ///< "--set key=value", or the study file's line
};
using OverrideRoots = std::vector<OverrideRoot>;

/// A YAML node together with where it came from (file, line, column) and its key path, so that every
/// typed read can fail with "file:line:col: key.path: what is wrong; expected ...".
class Node {
public:
  Node() = default;
  Node(YAML::Node node, std::shared_ptr<const std::string> file, std::string path, Location parent_location = {});
  /// This document with `overrides` marked: a node that is (or lies below) one of their values is located
  /// at the override's `where`.
  Node with_overrides(std::shared_ptr<const OverrideRoots> overrides) const;
  Node(const Node&) = default;
  Node(Node&&) = default;
  /// Rebinds (YAML::Node's own assignment would overwrite the referenced node's content).
  Node& operator=(const Node& other);
  Node& operator=(Node&& other);
  ~Node() = default;

  bool is_defined() const { return node_.IsDefined() && !node_.IsNull(); }
  // yaml-cpp throws on type queries of a missing child ("zombie" node): check IsDefined first.
  bool is_map() const { return node_.IsDefined() && node_.IsMap(); }
  bool is_sequence() const { return node_.IsDefined() && node_.IsSequence(); }
  bool is_scalar() const { return node_.IsDefined() && node_.IsScalar(); }
  std::size_t size() const { return node_.IsDefined() ? node_.size() : 0; }
  const std::string& path() const { return path_; }
  Location location() const;
  const YAML::Node& yaml() const { return node_; }
  const std::string& file() const;

  /// Child of a map (undefined when absent; its errors then point at this map).
  Node operator[](std::string_view key) const;
  /// Element of a sequence.
  Node at(std::size_t index) const;
  /// Keys of a map in document order.
  std::vector<std::string> keys() const;
  /// Keys and values of a map in document order, in one pass (looking each key up again is linear in the
  /// map's size: a map of 40,000 keys would take seconds).
  std::vector<std::pair<std::string, Node>> items() const;

  /// Fails when the map has a key outside `accepted` (message lists them, with a did-you-mean).
  void expect_keys(const std::vector<std::string>& accepted) const;
  void expect_map() const;

  [[noreturn]] void fail(const std::string& what) const;
  /// Whether this node is, or lies below, a value given by an override.
  bool is_overridden() const { return origin_.has_value(); }

  std::string as_string() const;
  bool as_bool() const;
  std::int64_t as_int() const;
  std::uint64_t as_u64() const; ///< 0 .. 2^64-1 (seeds)
  /// A strictly positive integer of at most `max` (counts: nodes, GPUs; model/limits.hpp).
  std::uint32_t as_count_upto(std::uint32_t max) const;
  /// as_count_upto(limits::MAX_COUNT).
  std::uint32_t as_count() const { return as_count_upto(model::limits::MAX_COUNT); }
  /// An integer in [0, max] (counts that may be zero).
  std::uint32_t as_count_or_zero(std::uint32_t max = model::limits::MAX_COUNT) const;
  double as_double() const;
  double as_nonnegative() const;
  /// A number in [lo, hi]; `what` names it in the error ("a share in [0, 1]").
  double as_double_in(double lo, double hi, const std::string& what) const;
  double as_bytes() const;         ///< "80GiB", "1.5TB", plain number = bytes
  double as_bandwidth_Bps() const; ///< "200Gbps", "25GBps", plain number = bytes/s; at least 1kBps
  double as_duration_s() const;    ///< "30min", "2h", "1d", plain number = seconds
  double as_power_W() const;       ///< "400W", "1.2kW"
  double as_utc_offset_s() const;  ///< "+08:00", "UTC", "-05:30"

  template <class T, class Read>
  T get_or(std::string_view key, T fallback, Read read) const {
    Node child = (*this)[key];
    return child.is_defined() ? (child.*read)() : fallback;
  }

private:
  std::string scalar_text() const;
  Node child(const YAML::Node& yaml, std::string path) const;
  /// The override whose value is `yaml` or lies below it (a map an override's path created).
  std::optional<Location> override_within(const YAML::Node& yaml) const;
  std::optional<Location> override_location(const YAML::Node& yaml) const;

  YAML::Node node_;
  std::shared_ptr<const std::string> file_;
  std::string path_;
  Location parent_location_;
  std::shared_ptr<const OverrideRoots> overrides_;
  std::optional<Location> origin_; ///< set when this node is, or lies below, an override's value
};

/// Loads a YAML file; a syntax error becomes a ConfigError with the file's line and column. A key given
/// twice in one mapping is an error (YAML 1.2 requires unique keys; yaml-cpp would keep the first).
Node load_yaml_file(const std::string& path);
/// Parses YAML text (embedded configs, tests); `name` stands for the file name in messages.
Node load_yaml_text(const std::string& text, const std::string& name);
/// Parses a JSON document acme-sim wrote (summary.json, a baseline, study.json): YAML text without anchors
/// or aliases, which JSON does not have.
Node load_json_text(const std::string& text, const std::string& name);
/// The text of the regular file at `path`; ConfigError "PATH: cannot read: REASON; expected WHAT" when it
/// cannot be read (missing, a folder, unreadable).
std::string read_input_file(const std::string& path, const std::string& expected);

} // namespace acme::config
