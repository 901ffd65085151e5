#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>

#include "sim/study/metrics_flatten.hpp"
#include "sim/study/text_format.hpp"

using acme::study::flatten_json_metrics;

TEST_CASE("study::flatten: numeric leaves become dotted metric names in document order", "[study][flatten]") {
  auto metrics = flatten_json_metrics(R"({"seed": 7, "config": "configs/test/tiny.yaml", "wall_s": 1.5,
    "clusters": {"seren": {"gpu_utilisation": 0.63, "by_type": {"SFT": {"queue_s": {"mean": 12.5, "p99": 1e3}}},
                           "lost": [1, 2.5], "label": "12", "ok": true, "none": null,
                           "wall_clock": {"total_s": 3}}}})",
                                      "summary.json");
  std::vector<std::string> names;
  std::map<std::string, double> values;
  for (const auto& m : metrics) {
    names.push_back(m.name);
    values[m.name] = m.value;
  }
  REQUIRE(names == std::vector<std::string>{"seed", "clusters.seren.gpu_utilisation",
                                            "clusters.seren.by_type.SFT.queue_s.mean",
                                            "clusters.seren.by_type.SFT.queue_s.p99", "clusters.seren.lost[0]",
                                            "clusters.seren.lost[1]", "clusters.seren.ok"});
  REQUIRE(values["clusters.seren.by_type.SFT.queue_s.p99"] == 1000.0);
  REQUIRE(values["clusters.seren.ok"] == 1.0);
}

TEST_CASE("study::flatten: text that is not a JSON object is located bad input", "[study][flatten]") {
  REQUIRE_THROWS_WITH(flatten_json_metrics("{\"a\": 1,\n \"b\": [1, 2}", "s.json"),
                      Catch::Contains("s.json:2:") && Catch::Contains("malformed"));
  REQUIRE_THROWS_WITH(flatten_json_metrics("[1, 2]", "s.json"), Catch::Contains("expected a JSON object"));
  REQUIRE_THROWS_WITH(acme::study::load_summary_metrics("/nonexistent/summary.json"), Catch::Contains("cannot read"));
}

TEST_CASE("study::text: numbers print as their shortest round-trip text", "[study][format]") {
  using acme::study::format_number;
  REQUIRE(format_number(12.0) == "12");
  REQUIRE(format_number(-0.0) == "0");
  REQUIRE(format_number(0.6384297520661157) == "0.6384297520661157");
  REQUIRE(format_number(84.60000000000002) == "84.60000000000002");
  for (double x : {1.0 / 3.0, 1e-300, 123456789.125, 2.5e21}) {
    REQUIRE(std::strtod(format_number(x).c_str(), nullptr) == x);
  }
}

TEST_CASE("study::text: CSV fields, JSON strings and stderr tails", "[study][format]") {
  using acme::study::csv_field;
  using acme::study::json_quote;
  using acme::study::tail_lines;
  REQUIRE(csv_field("plain") == "plain");
  REQUIRE(csv_field("a,b") == "\"a,b\"");
  REQUIRE(csv_field("say \"hi\"\n") == "\"say \"\"hi\"\"\n\"");
  REQUIRE(json_quote("a\"b\\c\nd\x01") == "\"a\\\"b\\\\c\\nd\\u0001\"");
  REQUIRE(tail_lines("one\ntwo\nthree\n\n", 2, 100) == "two\nthree");
  REQUIRE(tail_lines("one\ntwo", 5, 100) == "one\ntwo");
  REQUIRE(tail_lines("abcdef", 1, 3) == "def");
}
