// Policy parameter tables: one declaration gives the parser, the unknown-key check and the documentation,
// and every documented default reads back as the value it documents.
#include <catch2/catch.hpp>

#include "policies/builtin.hpp"
#include "policies/param_table.hpp"
#include "sim/config/config.hpp"
#include "sim/config/node.hpp"
#include "sim/model/error.hpp"
#include "tests/unit/error_of.hpp"

using namespace acme;
using acme::policies::ParamTable;
using Catch::Matchers::Contains;

namespace {

struct Sample {
  std::uint32_t depth = 100;
  double share = 0.5;
  double wait_s = 300.0;
  bool on = true;
  int mode = 1;
  model::Distribution delay = model::Distribution{model::Distribution::Kind::LOGNORMAL, 1200.0, 0.8};
};

const ParamTable<Sample>& sample_table() {
  static const ParamTable<Sample> t =
      ParamTable<Sample>{policies::count_param("depth", &Sample::depth, "jobs per pass", 1, 1000),
                         policies::number_param("share", &Sample::share, "a share", policies::Bounds::share()),
                         policies::duration_param("wait", &Sample::wait_s, "a wait", policies::Bounds::positive()),
                         policies::flag_param("on", &Sample::on, "a switch"),
                         policies::choice_param("mode", &Sample::mode, {{"a", 0}, {"b", 1}}, "a mode"),
                         policies::distribution_param("delay", &Sample::delay, "a delay")}
          .check([](const config::Node& node, const Sample& s) {
            if (!s.on && s.depth > 1) {
              node["depth"].fail("depth needs on: true");
            }
          });
  return t;
}

config::Node yaml(const std::string& text) {
  return config::load_yaml_text("p: " + text, "t.yaml")["p"];
}

/// `key: value` of the policy `name` of one family, as a config would give it.
config::PolicySpec spec(const std::string& family, const std::string& name, const std::string& body) {
  config::Node root = config::load_yaml_text(family + ": {name: " + name + body + "}", "t.yaml");
  return config::parse_policy(root[family], family.c_str(), name.c_str());
}

template <class Policy>
void defaults_read_back(const policies::Registry<Policy>& registry, const std::string& family) {
  for (const auto& [name, entry] : registry.entries()) {
    for (const auto& doc : entry.params) {
      if (doc.default_value.front() == '(') {
        continue; // "(required)", a nested section
      }
      INFO(family << " " << name << " " << doc.name << ": " << doc.default_value);
      // Keys that need another key's value: fixed's required interval, per-user quotas.
      std::string extra = name == "fixed" ? ", interval: 30min" : doc.name == "user_quota" ? ", group_by: user" : "";
      REQUIRE_NOTHROW(
          registry.create(spec(family, name, ", " + doc.name + ": " + doc.default_value + extra), {1, "c", ""}));
    }
  }
}

} // namespace

TEST_CASE("policies::param_table: reads declared keys over the defaults", "[policies][params]") {
  Sample s = sample_table().parse(yaml("{name: x, depth: 1, share: 1, wait: 2min, on: false, mode: a}"), {}, true);
  REQUIRE(s.depth == 1);
  REQUIRE(s.share == 1.0);
  REQUIRE(s.wait_s == 120.0);
  REQUIRE_FALSE(s.on);
  REQUIRE(s.mode == 0);
  REQUIRE(s.delay.a == 1200.0); // untouched
  SECTION("a bare name gives the defaults") {
    REQUIRE(sample_table().parse(yaml("x")).depth == 100);
  }
}

TEST_CASE("policies::param_table: bounds, unknown keys and checks fail on the value", "[policies][params]") {
  auto fails = [](const std::string& text) { return test::error_of([&] { sample_table().parse(yaml(text)); }); };
  REQUIRE_THAT(fails("{depth: 0}"),
               Contains("t.yaml:1:12: p.depth: expected a positive integer of at most 1000, got \"0\""));
  REQUIRE_THAT(fails("{depth: 4000000000}"), Contains("expected a positive integer of at most 1000"));
  REQUIRE_THAT(fails("{share: 5}"), Contains("p.share: expected a number in [0, 1], got \"5\""));
  REQUIRE_THAT(fails("{share: .nan}"), Contains("p.share: expected a number"));
  REQUIRE_THAT(fails("{wait: 0s}"), Contains("p.wait: expected a duration > 0s, got \"0s\""));
  REQUIRE_THAT(fails("{mode: c}"), Contains("p.mode: unknown mode \"c\"; expected one of: a, b"));
  REQUIRE_THAT(fails("{dept: 3}"), Contains("dept"));
  REQUIRE_THAT(fails("{on: false, depth: 3}"), Contains("p.depth: depth needs on: true"));
}

TEST_CASE("policies::param_table: documentation shows the struct's defaults", "[policies][params]") {
  std::vector<policies::ParamDoc> docs = sample_table().docs();
  REQUIRE(docs.size() == 6);
  REQUIRE(docs[0].default_value == "100");
  REQUIRE(docs[1].default_value == "0.5");
  REQUIRE(docs[2].default_value == "5min");
  REQUIRE(docs[3].default_value == "true");
  REQUIRE(docs[4].default_value == "b");
  REQUIRE(docs[5].default_value == "{dist: lognormal, median: 20min, sigma: 0.8}");
  REQUIRE(sample_table().keys() == std::vector<std::string>{"depth", "share", "wait", "on", "mode", "delay"});
}

TEST_CASE("policies::param_table: every built-in policy's documented defaults read back", "[policies][params]") {
  auto r = policies::make_builtin_registries();
  defaults_read_back(r.schedulers, "scheduler");
  defaults_read_back(r.placements, "placement");
  defaults_read_back(r.checkpoints, "policy");
  defaults_read_back(r.recoveries, "policy");
  defaults_read_back(r.eval_dispatches, "dispatch");
}
