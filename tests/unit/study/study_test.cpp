#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include "sim/study/study.hpp"
#include "tests/unit/test_paths.hpp"

using acme::ConfigError;
using acme::study::parse_study_text;

namespace {

const std::string CONFIG_DIR = acme::test::source_path("configs/test");

std::string error_of(const std::string& text) {
  try {
    parse_study_text(text, "study.yaml", CONFIG_DIR);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("study::load: reads config, fixed overrides, grid, zip and seeds", "[study][parse]") {
  auto s = parse_study_text("name: demo\n"
                            "config: tiny.yaml\n"
                            "set: {output.timeseries_interval: 10min}\n"
                            "grid:\n"
                            "  policies.placement.name: [pack, first_fit]\n"
                            "  clusters[0].nodes: [2, 3, 4]\n"
                            "zip:\n"
                            "  clusters[0].cpu_job_cores_per_node: [4, 8]\n"
                            "  clusters[0].network: [{nodes_per_leaf: 1}, {nodes_per_leaf: 2}]\n"
                            "seeds: 3\n",
                            "study.yaml", CONFIG_DIR);
  REQUIRE(s.name == "demo");
  REQUIRE(s.base_config == CONFIG_DIR + "/tiny.yaml");
  REQUIRE(s.fixed.size() == 1);
  REQUIRE(s.fixed[0].key_path == "output.timeseries_interval");
  REQUIRE(s.fixed[0].value == "10min");
  REQUIRE(s.grid.size() == 2);
  REQUIRE(s.grid[1].key_path == "clusters[0].nodes");
  REQUIRE(s.grid[1].values == std::vector<std::string>{"2", "3", "4"});
  REQUIRE(s.zips.size() == 1);
  REQUIRE(s.zips[0].axes.size() == 2);
  REQUIRE(s.zips[0].axes[1].values[1] == "{nodes_per_leaf: 2}");
  REQUIRE(s.seeds == std::vector<std::uint64_t>{1, 2, 3});
  REQUIRE(acme::study::axis_keys(s) == std::vector<std::string>{"policies.placement.name", "clusters[0].nodes",
                                                                "clusters[0].cpu_job_cores_per_node",
                                                                "clusters[0].network"});
}

TEST_CASE("study::load: seeds as a list, as the config's seed, several zip groups", "[study][parse]") {
  auto listed = parse_study_text("config: tiny.yaml\nseeds: [11, 5]\n", "s.yaml", CONFIG_DIR);
  REQUIRE(listed.seeds == std::vector<std::uint64_t>{11, 5});
  REQUIRE(listed.name == "s");
  auto from_config = parse_study_text("config: tiny.yaml\n", "s.yaml", CONFIG_DIR);
  REQUIRE(from_config.seeds == std::vector<std::uint64_t>{7}); // configs/test/tiny.yaml: seed: 7
  auto zips = parse_study_text("config: tiny.yaml\nzip:\n  - {a: [1, 2]}\n  - {b: [x, y, z], c: [1, 2, 3]}\n", "s.yaml",
                               CONFIG_DIR);
  REQUIRE(zips.zips.size() == 2);
  REQUIRE(zips.zips[1].axes.size() == 2);
  // A zip list may repeat a value as long as the columns differ.
  auto repeats = parse_study_text("config: tiny.yaml\nzip:\n  a: [sync, async, async]\n  b: [3h, 30min, 1h]\n",
                                  "s.yaml", CONFIG_DIR);
  REQUIRE(repeats.zips[0].axes[0].values == std::vector<std::string>{"sync", "async", "async"});
}

TEST_CASE("study::load: bad study files fail with file:line:col, key and what is expected", "[study][parse]") {
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrids: {a: [1]}\n"),
               Catch::Contains("study.yaml:2:1") && Catch::Contains("unknown key \"grids\""));
  REQUIRE_THAT(error_of("grid: {a: [1]}\n"), Catch::Contains("config: missing; expected `config: PATH`"));
  REQUIRE_THAT(error_of("config: nope.yaml\n"), Catch::Contains("cannot read") && Catch::Contains("nope.yaml"));
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrid:\n  a: []\n"),
               Catch::Contains("study.yaml:3:6") && Catch::Contains("grid.a: expected a non-empty list"));
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrid:\n  a: [1, 1]\n"), Catch::Contains("appears twice"));
  REQUIRE_THAT(error_of("config: tiny.yaml\nzip:\n  a: [1, 2]\n  b: [1]\n"),
               Catch::Contains("zip.b: has 1 values but a has 2") && Catch::Contains("equal length"));
  REQUIRE_THAT(error_of("config: tiny.yaml\nzip:\n  a: [1, 2, 1]\n  b: [x, y, x]\n"),
               Catch::Contains("study.yaml:3:13") && Catch::Contains("zip.a[2]: entry 3 repeats an earlier entry") &&
                   Catch::Contains("expected distinct combinations"));
  REQUIRE_THAT(error_of("config: tiny.yaml\nset: {a: 1}\ngrid: {a: [1, 2]}\n"),
               Catch::Contains("grid.a: is set in more than one place"));
  REQUIRE_THAT(error_of("config: tiny.yaml\nseeds: 0\n"),
               Catch::Contains("seeds: expected a positive integer of at most 10000, got \"0\""));
  REQUIRE_THAT(error_of("config: tiny.yaml\nseeds: [1, 1]\n"), Catch::Contains("expected distinct"));
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrid: {seed: [1, 2]}\n"), Catch::Contains("the seed is set by `seeds:`"));
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrid: {\"a[x]\": [1, 2]}\n"), Catch::Contains("is not a config key path"));
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrid: [1, 2]\n"), Catch::Contains("grid"));
  REQUIRE_THAT(error_of("config: [tiny.yaml\n"), Catch::Contains("study.yaml:") && Catch::Contains("malformed YAML"));
}

TEST_CASE("study::load: labels name the values of a varied key", "[study][parse]") {
  auto s = parse_study_text("config: tiny.yaml\n"
                            "grid: {policies.placement.name: [pack, first_fit]}\n"
                            "zip: {a: [{name: quota, borrowing: true}, {name: fifo}], b: [1, 2]}\n"
                            "labels: {a: [acme_like, fifo]}\n",
                            "study.yaml", CONFIG_DIR);
  REQUIRE(s.labels.size() == 1);
  REQUIRE(s.labels[0].key_path == "a");
  REQUIRE(s.labels[0].names == std::vector<std::string>{"acme_like", "fifo"});
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrid: {a: [1, 2]}\nlabels: {b: [x, y]}\n"),
               Catch::Contains("study.yaml:3:") && Catch::Contains("labels.b: is not varied by grid or zip") &&
                   Catch::Contains("expected one of: a"));
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrid: {a: [1, 2]}\nlabels: {a: [x]}\n"),
               Catch::Contains("expected a list of 2 names, one per value of a"));
  REQUIRE_THAT(error_of("config: tiny.yaml\ngrid: {a: [1, 2]}\nlabels: {a: [x, x]}\n"),
               Catch::Contains("expected distinct, non-empty names"));
}

TEST_CASE("study::load: values keep their YAML meaning when passed to --set", "[study][parse]") {
  auto s = parse_study_text("config: tiny.yaml\ngrid:\n  a: ['{k: v}', \"pack\", 10min, {name: fifo}, [1, 2]]\n",
                            "s.yaml", CONFIG_DIR);
  const auto& values = s.grid[0].values;
  YAML::Node quoted_map = YAML::Load(values[0]);
  REQUIRE(quoted_map.IsScalar()); // a quoted string stays a string
  REQUIRE(quoted_map.Scalar() == "{k: v}");
  REQUIRE(values[1] == "pack");
  REQUIRE(values[2] == "10min");
  REQUIRE(values[3] == "{name: fifo}");
  REQUIRE(values[4] == "[1, 2]");
}

TEST_CASE("study::load: question, answer metrics and a baseline setting", "[study][parse]") {
  auto s = parse_study_text("config: tiny.yaml\n"
                            "grid: {p: [pack, first_fit]}\n"
                            "zip: {a: [1, 2, 3], b: [x, y, x]}\n"
                            "labels: {a: [one, two, three]}\n"
                            "question: Does packing cut waits?\n"
                            "answer: [by_type.*.queue_s.mean, gpu_utilisation]\n"
                            "baseline: {p: first_fit, b: x, a: three}\n",
                            "study.yaml", CONFIG_DIR);
  CHECK(s.question == "Does packing cut waits?");
  CHECK(s.answer == std::vector<std::string>{"by_type.*.queue_s.mean", "gpu_utilisation"});
  REQUIRE(s.baseline.size() == 3);
  CHECK(s.baseline[0].value == "first_fit");
  CHECK(s.baseline[1].value == "3"); // the zip column where a is "three" (label) and b is x
  CHECK(s.baseline[2].value == "x");
  auto plain =
      parse_study_text("config: tiny.yaml\nzip: {a: [1, 2], b: [x, y]}\nbaseline: {b: y}\n", "s.yaml", CONFIG_DIR);
  CHECK(plain.baseline[0].value == "2"); // the zipped key follows the named one
  auto unnamed = parse_study_text("config: tiny.yaml\ngrid: {a: [1, 2]}\n", "s.yaml", CONFIG_DIR);
  CHECK(unnamed.baseline[0].value == "1"); // no baseline: every key at its first value
}

TEST_CASE("study::load: a bad question, answer or baseline fails located", "[study][parse]") {
  const std::string head = "config: tiny.yaml\ngrid: {a: [1, 2]}\nzip: {b: [x, y], c: [u, v]}\n";
  REQUIRE_THAT(error_of(head + "baseline: {d: 1}\n"), Catch::Contains("study.yaml:4:") &&
                                                          Catch::Contains("baseline.d: is not varied by grid or zip") &&
                                                          Catch::Contains("expected one of: a, b, c"));
  REQUIRE_THAT(error_of(head + "baseline: {a: 3}\n"),
               Catch::Contains("baseline.a: \"3\" is not a value of a; expected one of: 1, 2"));
  REQUIRE_THAT(error_of(head + "baseline: {b: x, c: v}\n"),
               Catch::Contains("baseline.c: \"v\" is never zipped with the other baseline values"));
  REQUIRE_THAT(error_of("config: tiny.yaml\nbaseline: {a: 1}\n"), Catch::Contains("the study varies no key"));
  REQUIRE_THAT(error_of(head + "answer: []\n"), Catch::Contains("answer: expected a list of 1 to 12 metrics"));
  REQUIRE_THAT(error_of(head + "answer: [clusters.seren.gpu_utilisation]\n"), Catch::Contains("names the cluster"));
  REQUIRE_THAT(error_of(head + "answer: [\"queue s\"]\n"),
               Catch::Contains("answer[0]: \"queue s\" is not a metric path"));
  REQUIRE_THAT(error_of(head + "answer: [gpu_utilisation, gpu_utilisation]\n"), Catch::Contains("appears twice"));
  REQUIRE_THAT(error_of(head + "question: \"\"\n"), Catch::Contains("question: expected the study's question"));
}
