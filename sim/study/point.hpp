#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/provenance.hpp"
#include "sim/study/study.hpp"

namespace acme::study {

/// One run of a study: the overrides it applies (fixed ones, then its axis values) and a seed.
struct Point {
  std::string id;       ///< "<group_id>-s<seed>": names its folder points/<id>/
  std::string group_id; ///< hash of the overrides alone: the replicas of one setting share it
  std::vector<config::Override> overrides;
  std::uint64_t seed = 0;

  friend bool operator==(const Point& a, const Point& b) {
    return a.id == b.id && a.group_id == b.group_id && a.seed == b.seed && a.overrides.size() == b.overrides.size() &&
           std::equal(a.overrides.begin(), a.overrides.end(), b.overrides.begin(),
                      [](const auto& x, const auto& y) { return x.key_path == y.key_path && x.value == y.value; });
  }
};

/// A stable 16-hex-digit name of a list of overrides (FNV-1a 64 of "key=value\n" lines in order):
/// the same overrides always name the same point, on any machine.
std::string overrides_hash(const std::vector<config::Override>& overrides);

/// The content hash of every file a point's run reads (its base config, traces, Python modules, ...; see
/// sim/config/provenance.hpp), by the config key that names it; empty when its config does not load (the
/// point then runs and fails with the config's own error). A finished point whose summary.json recorded
/// other hashes runs again.
std::map<std::string, std::string> point_inputs(const std::string& base_config, const Point& point,
                                                config::FileHashCache& cache);

/// The first input (key) whose hash differs between what a point ran with and what it would read now, or
/// that one of them lacks; "" when they agree.
std::string changed_input(const std::map<std::string, std::string>& then,
                          const std::map<std::string, std::string>& now);

/// Every point of the study: grid (cartesian) x zip groups (varied together) x seeds, in the
/// canonical order (group id, then seed). Throws ConfigError when two points would coincide.
std::vector<Point> expand_points(const Study& study);

/// `--shard K/N`: the K-th of N disjoint subsets (1-based K).
struct Shard {
  std::size_t index = 1;
  std::size_t count = 1;
};

/// Parses "K/N" (1 <= K <= N); throws ConfigError naming `--shard`.
Shard parse_shard(const std::string& text);

/// The points whose position in canonical order is K-1 modulo N: every point is in exactly one shard.
std::vector<Point> select_shard(const std::vector<Point>& points, Shard shard);

/// Orders points canonically (group id, then seed as a number).
bool point_less(const Point& a, const Point& b);

} // namespace acme::study
