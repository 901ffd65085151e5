#include "sim/study/point.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <set>

#include "sim/study/text_format.hpp"

namespace acme::study {
namespace {

/// The axis-value combinations: one vector of overrides per combination, grid first (the first axis
/// varies slowest), then each zip group.
std::vector<std::vector<config::Override>> combinations(const Study& study) {
  std::vector<std::vector<config::Override>> combos{study.fixed};
  auto extend = [&combos](const std::vector<const Axis*>& axes, std::size_t count) {
    std::vector<std::vector<config::Override>> next;
    for (const auto& combo : combos) {
      for (std::size_t i = 0; i < count; ++i) {
        auto extended = combo;
        for (const Axis* axis : axes) {
          extended.push_back({axis->key_path, axis->values[i], axis->value_where[i]});
        }
        next.push_back(std::move(extended));
      }
    }
    combos = std::move(next);
  };
  for (const auto& axis : study.grid) {
    extend({&axis}, axis.values.size());
  }
  for (const auto& group : study.zips) {
    std::vector<const Axis*> axes;
    for (const auto& axis : group.axes) {
      axes.push_back(&axis);
    }
    extend(axes, group.axes.front().values.size());
  }
  return combos;
}

std::string describe(const std::vector<config::Override>& overrides) {
  std::string text;
  for (const auto& o : overrides) {
    text += (text.empty() ? "" : " ") + o.key_path + "=" + o.value;
  }
  return text.empty() ? "(no overrides)" : text;
}

} // namespace

std::string overrides_hash(const std::vector<config::Override>& overrides) {
  std::string text;
  for (const auto& o : overrides) {
    text += o.key_path + "=" + o.value + "\n";
  }
  return config::content_hash(text); // FNV-1a 64 streams: the same as mixing line by line
}

std::map<std::string, std::string> point_inputs(const std::string& base_config, const Point& point,
                                                config::FileHashCache& cache) {
  std::vector<config::Override> overrides = point.overrides;
  overrides.push_back({"seed", std::to_string(point.seed)});
  std::map<std::string, std::string> out;
  try {
    for (const auto& in : config::input_files(config::load_config(base_config, overrides), &cache)) {
      out[in.key] = in.hash;
    }
  } catch (const ConfigError&) {
    out.clear(); // the point's run reports it
  }
  return out;
}

std::string changed_input(const std::map<std::string, std::string>& then,
                          const std::map<std::string, std::string>& now) {
  for (const auto& [key, hash] : now) {
    auto it = then.find(key);
    if (it == then.end() || it->second != hash) {
      return key;
    }
  }
  for (const auto& entry : then) {
    if (!now.contains(entry.first)) {
      return entry.first;
    }
  }
  return "";
}

bool point_less(const Point& a, const Point& b) {
  if (a.group_id != b.group_id) {
    return a.group_id < b.group_id;
  }
  return a.seed < b.seed;
}

std::vector<Point> expand_points(const Study& study) {
  std::vector<Point> points;
  std::set<std::string> groups;
  for (auto& overrides : combinations(study)) {
    std::string group = overrides_hash(overrides);
    if (!groups.insert(group).second) {
      throw ConfigError(Location{study.file, 0, 0}, "",
                        "two points have the same id " + group + " (" + describe(overrides) +
                            "); expected distinct settings");
    }
    for (std::uint64_t seed : study.seeds) {
      points.push_back(Point{group + "-s" + std::to_string(seed), group, overrides, seed});
    }
  }
  std::sort(points.begin(), points.end(), point_less);
  return points;
}

Shard parse_shard(const std::string& text) {
  auto fail = [&text]() {
    throw ConfigError(Location{"--shard " + text, 0, 0}, "",
                      "expected K/N with 1 <= K <= N, e.g. --shard 2/4 (the second of four shards)");
  };
  auto slash = text.find('/');
  if (slash == std::string::npos) {
    fail();
  }
  Shard shard;
  auto parse = [&](std::string_view part, std::size_t& out) {
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size()) {
      fail();
    }
  };
  parse(std::string_view(text).substr(0, slash), shard.index);
  parse(std::string_view(text).substr(slash + 1), shard.count);
  if (shard.count == 0 || shard.index == 0 || shard.index > shard.count) {
    fail();
  }
  return shard;
}

std::vector<Point> select_shard(const std::vector<Point>& points, Shard shard) {
  std::vector<Point> subset;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i % shard.count == shard.index - 1) {
      subset.push_back(points[i]);
    }
  }
  return subset;
}

} // namespace acme::study
