#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "sim/study/point.hpp"
#include "tests/unit/test_paths.hpp"

using acme::study::expand_points;
using acme::study::parse_study_text;
using acme::study::Point;

namespace {

const std::string CONFIG_DIR = acme::test::source_path("configs/test");

std::string value_of(const Point& p, const std::string& key) {
  for (const auto& o : p.overrides) {
    if (o.key_path == key) {
      return o.value;
    }
  }
  return "<absent>";
}

} // namespace

TEST_CASE("study::points: grid x zip x seeds expands to every combination once", "[study][points]") {
  auto s = parse_study_text("config: tiny.yaml\nset: {f: 1}\n"
                            "grid: {a: [1, 2], b: [x, y, z]}\n"
                            "zip: {c: [10, 20], d: [u, v]}\n"
                            "seeds: 3\n",
                            "s.yaml", CONFIG_DIR);
  auto points = expand_points(s);
  REQUIRE(points.size() == 2 * 3 * 2 * 3);
  std::set<std::string> ids;
  std::set<std::string> combos;
  std::map<std::string, int> per_group;
  for (const auto& p : points) {
    ids.insert(p.id);
    ++per_group[p.group_id];
    REQUIRE(p.id == p.group_id + "-s" + std::to_string(p.seed));
    REQUIRE(p.overrides.front().key_path == "f"); // fixed overrides first, then axes in file order
    REQUIRE(p.overrides.size() == 5);
    // zip: c and d vary together
    REQUIRE(((value_of(p, "c") == "10" && value_of(p, "d") == "u") ||
             (value_of(p, "c") == "20" && value_of(p, "d") == "v")));
    combos.insert(value_of(p, "a") + value_of(p, "b") + value_of(p, "c") + "/" + std::to_string(p.seed));
  }
  REQUIRE(ids.size() == points.size());
  REQUIRE(combos.size() == points.size());
  REQUIRE(per_group.size() == 12);
  for (const auto& [group, replicas] : per_group) {
    REQUIRE(replicas == 3);
  }
  REQUIRE(std::is_sorted(points.begin(), points.end(), acme::study::point_less));
}

TEST_CASE("study::points: ids are stable hashes of the overrides", "[study][points]") {
  using acme::study::overrides_hash;
  // FNV-1a 64 of nothing is its offset basis (http://www.isthe.com/chongo/tech/comp/fnv/).
  REQUIRE(overrides_hash({}) == "cbf29ce484222325");
  std::vector<acme::config::Override> ab{{"a", "1"}, {"b", "2"}};
  std::vector<acme::config::Override> ba{{"b", "2"}, {"a", "1"}};
  std::vector<acme::config::Override> ab3{{"a", "1"}, {"b", "3"}};
  REQUIRE(overrides_hash(ab) == overrides_hash(ab));
  REQUIRE(overrides_hash(ab).size() == 16);
  REQUIRE(overrides_hash(ab) != overrides_hash(ba)); // application order matters
  REQUIRE(overrides_hash(ab) != overrides_hash(ab3));
  auto s1 = parse_study_text("config: tiny.yaml\ngrid: {a: [1, 2]}\nseeds: [4]\n", "s.yaml", CONFIG_DIR);
  auto s2 = parse_study_text("config: tiny.yaml\ngrid: {a: [2, 1, 3]}\nseeds: [4, 5]\n", "other.yaml", CONFIG_DIR);
  std::set<std::string> first;
  for (const auto& p : expand_points(s1)) {
    first.insert(p.id);
  }
  std::size_t shared = 0;
  for (const auto& p : expand_points(s2)) {
    shared += first.count(p.id);
  }
  REQUIRE(shared == 2); // a=1 and a=2 with seed 4 are the same points in both studies
}

TEST_CASE("study::points: shards partition the points, every point in exactly one", "[study][shard]") {
  auto s = parse_study_text("config: tiny.yaml\ngrid: {a: [1, 2, 3, 4, 5, 6, 7]}\nseeds: 2\n", "s.yaml", CONFIG_DIR);
  auto points = expand_points(s);
  for (std::size_t n = 1; n <= 6; ++n) {
    std::map<std::string, int> seen;
    for (std::size_t k = 1; k <= n; ++k) {
      auto shard =
          acme::study::select_shard(points, acme::study::parse_shard(std::to_string(k) + "/" + std::to_string(n)));
      REQUIRE(shard.size() >= points.size() / n);
      REQUIRE(shard.size() <= points.size() / n + 1);
      for (const auto& p : shard) {
        ++seen[p.id];
      }
    }
    REQUIRE(seen.size() == points.size());
    for (const auto& [id, times] : seen) {
      REQUIRE(times == 1);
    }
  }
}

TEST_CASE("study::points: --shard must be K/N with 1 <= K <= N", "[study][shard]") {
  for (const char* bad : {"0/4", "5/4", "1/0", "2", "a/b", "1/4x", "/4", ""}) {
    REQUIRE_THROWS_WITH(acme::study::parse_shard(bad), Catch::Contains("expected K/N with 1 <= K <= N"));
  }
  auto shard = acme::study::parse_shard("3/4");
  REQUIRE(shard.index == 3);
  REQUIRE(shard.count == 4);
}
