#include <catch2/catch.hpp>

#include <string>

#include "sim/config/config.hpp"
#include "validate/embedded_files.hpp"
#include "validate/reference_values.hpp"

using namespace acme;

TEST_CASE("validate::reference_values: reads values, tolerances, ranges and sources", "[validate][reference]") {
  validate::ReferenceTable refs(R"(
ratio: {value: 1.3, tolerance: 0.15, source: "paper, section 6"}
range: {low: 3.6, high: 58.7, source: "data/README.md"}
)",
                                "test.yaml");
  REQUIRE(refs.at("ratio").value == 1.3);
  REQUIRE(refs.at("ratio").tolerance == 0.15);
  REQUIRE(refs.at("ratio").low == 0.0);
  REQUIRE(refs.at("range").low == 3.6);
  REQUIRE(refs.at("range").high == 58.7);
  REQUIRE(refs.at("range").source == "data/README.md");
}

TEST_CASE("validate::reference_values: every compiled-in reference cites a source and every scenario is a valid "
          "config",
          "[validate][reference]") {
  int references = 0;
  int scenarios = 0;
  for (const auto& file : validate::embedded_validation_files()) {
    std::string name(file.name);
    if (name.ends_with("/reference.yaml")) {
      validate::ReferenceTable refs(file.text, name); // asserts a source on every entry
      ++references;
    } else {
      config::Config cfg = config::load_config_text(std::string(file.text), name, "/nonexistent");
      REQUIRE(cfg.clusters.size() == 1);
      ++scenarios;
    }
  }
  REQUIRE(references == 5); // checkpoint, eval, failures, network, power
  REQUIRE(scenarios == 9);
  REQUIRE(validate::ReferenceTable(validate::validation_file("checkpoint/reference.yaml"), "checkpoint")
              .at("async_overhead_ratio")
              .high == 58.7);
}
