#include <catch2/catch.hpp>

#include "sim/config/config.hpp"
#include "tests/unit/test_paths.hpp"

using namespace acme;
using Catch::Contains;

namespace {
const char* const BASE = R"(seed: 3
clusters:
  - name: seren
    nodes: 4
policies:
  scheduler: {name: fifo}
workload: {kind: trace, format: acme, path: t.csv}
)";

std::string error_of(const std::string& text, const std::vector<config::Override>& overrides = {}) {
  try {
    config::load_config_text(text, "c.yaml", "/base", overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST_CASE("config::load: the shipped configs load with their documented values", "[config]") {
  config::Config cfg = config::load_config(test::source_path("configs/acme.yaml"));
  REQUIRE(cfg.clusters.size() == 2);
  REQUIRE(cfg.clusters[0].name == "seren");
  REQUIRE(cfg.clusters[0].nodes * cfg.clusters[0].gpus_per_node == 2288);
  REQUIRE(cfg.clusters[1].nodes * cfg.clusters[1].gpus_per_node == 2416);
  REQUIRE(cfg.clusters[0].utc_offset_s == 8 * 3600.0);
  REQUIRE(cfg.clusters[1].network.storage_nics_per_node == 1);
  REQUIRE(cfg.clusters[0].network.nic_bw_Bps == Approx(25e9));
  REQUIRE(cfg.clusters[0].storage.bw_Bps == Approx(100e9));
}

TEST_CASE("config::load: defaults and relative paths", "[config]") {
  config::Config cfg = config::load_config_text(BASE, "c.yaml", "/base");
  REQUIRE(cfg.seed == 3);
  REQUIRE(cfg.clusters[0].gpus_per_node == 8);
  REQUIRE(cfg.clusters[0].scheduler.name == "fifo");
  REQUIRE(cfg.clusters[0].placement.name == "pack");
  REQUIRE(cfg.resolve_path("t.csv") == "/base/t.csv");
  REQUIRE(cfg.resolve_path("/abs/t.csv") == "/abs/t.csv");
}

TEST_CASE("config::load: errors name file, line, column and key", "[config][errors]") {
  std::string unknown = error_of(std::string(BASE) + "outptu: {}\n");
  REQUIRE_THAT(unknown, Contains("c.yaml:8:1: outptu: unknown key \"outptu\"; expected one of:") &&
                            Contains("(did you mean \"output\"?)"));
  std::string nested = R"(clusters:
  - name: seren
    nodes: 4
    network: {nic_bandwidth: 25GBs}
workload: {kind: trace}
)";
  REQUIRE_THAT(error_of(nested), Contains("c.yaml:4:30: clusters[0].network.nic_bandwidth: unknown unit \"GBs\""));
  REQUIRE_THAT(error_of("clusters:\n  - name: a\n    nodes: -8\n"),
               Contains("c.yaml:3:12: clusters[0].nodes: expected a positive integer of at most 100000, got \"-8\""));
  REQUIRE_THAT(error_of("clusters:\n  - name: a\n    nodes: 0\n"), Contains("expected a positive integer"));
  REQUIRE_THAT(error_of("clusters: [\n"), Contains("c.yaml:") && Contains("malformed YAML"));
  REQUIRE_THAT(error_of("seed: x\nclusters: [{name: a, nodes: 1}]\n"),
               Contains("c.yaml:1:7: seed: expected an integer in [0, 18446744073709551615], got \"x\""));
  REQUIRE_THAT(error_of("clusters: [{name: a, nodes: 1}, {name: a, nodes: 2}]\n"), Contains("duplicate cluster name"));
  REQUIRE_THAT(error_of("clusters: [{nodes: 1}]\n"), Contains("missing key \"name\""));
}

TEST_CASE("config::load: --set overrides apply before validation and are blamed on the argument", "[config]") {
  config::Config cfg = config::load_config_text(
      BASE, "c.yaml", "/base",
      {config::parse_override("clusters[0].nodes=16"), config::parse_override("output.timeseries_interval=10min")});
  REQUIRE(cfg.clusters[0].nodes == 16);
  REQUIRE(cfg.output.timeseries_interval_s == 600.0);
  REQUIRE_THAT(error_of(BASE, {config::parse_override("seed=abc")}),
               Contains("--set seed=abc: seed: expected an integer in [0, 18446744073709551615], got \"abc\""));
  // An unknown key, and a value checked by a later layer, are blamed on the argument too (no file position).
  REQUIRE(error_of(BASE, {config::parse_override("output.interval=1h")}) ==
          "--set output.interval=1h: output.interval: unknown key \"interval\"; expected one of: "
          "timeseries_interval, jobs_csv, events, events_max");
  config::Config later =
      config::load_config_text(BASE, "c.yaml", "/base", {config::parse_override("workload.limit=lots")});
  REQUIRE(later.workload["limit"].location().file == "--set workload.limit=lots");
  // A study gives its overrides with their own line: errors name it.
  REQUIRE_THAT(error_of(BASE, {config::Override{"clusters[0].nodes", "lots", Location{"study.yaml", 4, 29}}}),
               Contains("study.yaml:4:29: clusters[0].nodes: expected a positive integer"));
  REQUIRE_THAT(error_of(BASE, {config::parse_override("clusters[5].nodes=1")}), Contains("index [5] does not exist"));
  REQUIRE_THROWS_AS(config::parse_override("nodes"), ConfigError);
  REQUIRE_THROWS_AS(config::parse_override("a[x]=1"), ConfigError);
}

TEST_CASE("config::load: a key given twice is an error, wherever it is", "[config][errors]") {
  REQUIRE(error_of(std::string(BASE) + "seed: 99\n") ==
          "c.yaml:8:1: key \"seed\" is given twice in this mapping (first on line 1); expected each key once");
  REQUIRE_THAT(error_of("clusters: [{name: a, nodes: 1, nodes: 2}]\n"),
               Contains("c.yaml:1:32: key \"nodes\" is given twice"));
  REQUIRE_THAT(error_of("? [a]\n: 1\n"), Contains("c.yaml:1:3: expected a plain key, got a list"));
  // Anchors and aliases are YAML: each mapping is checked once, however often it is referred to (a
  // billion-laughs document is walked in a blink).
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev + ", " + prev + ", " + prev + ", " +
            prev + ", " + prev + ", " + prev + ", " + prev + ", " + prev + ", " + prev + ", " + prev + "]\n";
  }
  REQUIRE_THAT(error_of(bomb), Contains("c.yaml:1:1: a0: unknown key \"a0\""));
}

TEST_CASE("config::load: counts and cluster names are bounded", "[config][errors]") {
  REQUIRE_THAT(error_of("clusters: [{name: a, nodes: 1, gpus_per_node: 4000000000}]\n"),
               Contains("clusters[0].gpus_per_node: expected a positive integer of at most 1024, got \"4000000000\""));
  REQUIRE_THAT(error_of("clusters: [{name: a, nodes: 100000000}]\n"),
               Contains("clusters[0].nodes: expected a positive integer of at most 100000"));
  REQUIRE_THAT(error_of("clusters: [{name: '', nodes: 1}]\n"), Contains("got an empty name"));
  REQUIRE_THAT(error_of("clusters: [{name: \"a\\nb\", nodes: 1}]\n"), Contains("without control characters"));
  REQUIRE_THAT(error_of(std::string(BASE) + "output: {timeseries_interval: 1e-300}\n"),
               Contains("output.timeseries_interval: expected a duration of at least 1s"));
  REQUIRE_THAT(error_of(std::string(BASE) + "recovery: {spare_nodes: 4}\n"),
               Contains("recovery.spare_nodes: 4 spares would hold back every node of cluster \"seren\" (4 nodes)"));
}
