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
               Contains("c.yaml:3:12: clusters[0].nodes: expected a positive integer, got \"-8\""));
  REQUIRE_THAT(error_of("clusters:\n  - name: a\n    nodes: 0\n"), Contains("expected a positive integer"));
  REQUIRE_THAT(error_of("clusters: [\n"), Contains("c.yaml:") && Contains("malformed YAML"));
  REQUIRE_THAT(error_of("seed: x\nclusters: [{name: a, nodes: 1}]\n"),
               Contains("c.yaml:1:7: seed: expected an integer, got \"x\""));
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
               Contains("--set seed=abc: seed: expected an integer, got \"abc\""));
  REQUIRE_THAT(error_of(BASE, {config::parse_override("clusters[5].nodes=1")}), Contains("index [5] does not exist"));
  REQUIRE_THROWS_AS(config::parse_override("nodes"), ConfigError);
  REQUIRE_THROWS_AS(config::parse_override("a[x]=1"), ConfigError);
}
