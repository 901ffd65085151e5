#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/faults.hpp"

using namespace acme;

namespace {
const char* const BASE = R"(clusters:
  - name: seren
    nodes: 4
workload: {kind: trace, format: acme, path: t.csv}
)";
} // namespace

TEST_CASE("config::faults: the fault config numbers the failure categories, the switch last", "[config][faults]") {
  config::Config defaults = config::load_config_text(BASE, "c.yaml", "/base");
  const config::FailureConfig& f = defaults.faults->failures;
  std::vector<std::string> names = f.category_names();
  REQUIRE(names == std::vector<std::string>{"nvlink", "cuda", "node", "ecc", "network", "storage", "connection",
                                            config::SWITCH_FAILURE_CATEGORY});
  REQUIRE(f.switch_category() == 7);
  REQUIRE(f.category_count() == 8);
  REQUIRE(f.category_name(0) == "nvlink");
  REQUIRE(f.category_name(f.switch_category()) == "switch");

  // A category the config adds comes after the defaults and before the switch.
  config::Config extra = config::load_config_text(
      std::string(BASE) + "failures: {categories: {psu: {new: true, rate_per_1000_node_days: 1}}}\n", "c.yaml",
      "/base");
  const config::FailureConfig& g = extra.faults->failures;
  REQUIRE(g.category_count() == 9);
  REQUIRE(g.category_name(7) == "psu");
  REQUIRE(g.category_names().back() == "switch");
}
