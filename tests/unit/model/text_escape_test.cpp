#include <catch2/catch.hpp>

#include <string>

#include "sim/model/error.hpp"
#include "sim/model/text_escape.hpp"

using namespace acme;

TEST_CASE("model::text_escape: names stay one CSV cell and one JSON string", "[model][output]") {
  REQUIRE(model::csv_field("seren") == "seren");
  REQUIRE(model::csv_field("se,ren") == "\"se,ren\"");
  REQUIRE(model::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  REQUIRE(model::csv_field("two\nlines") == "\"two\nlines\"");
  REQUIRE(model::json_quote("se\"r\\en") == "\"se\\\"r\\\\en\"");
  REQUIRE(model::json_quote("a\nb\tc\x01") == "\"a\\nb\\tc\\u0001\"");
  REQUIRE(model::json_quote("Zürich") == "\"Zürich\""); // UTF-8 as is
  REQUIRE(model::json_quote("\xff\xfe"
                            "a") == "\"\\ufffd\\ufffda\"");                  // not UTF-8: U+FFFD
  REQUIRE(model::json_quote("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\""); // a surrogate is not UTF-8
}

TEST_CASE("model::error: a message stays one readable line whatever it echoes", "[model][errors]") {
  ConfigError newline(Location{"c.yaml", 2, 3}, "clusters[0].name", "got \"a\nb\"");
  REQUIRE(std::string(newline.what()) == "c.yaml:2:3: clusters[0].name: got \"a\\nb\"");
  std::string huge(1000000, 'x');
  ConfigError long_value(Location{"c.yaml", 1, 1}, "seed", "expected an integer, got \"" + huge + "\"");
  std::string what = long_value.what();
  REQUIRE(what.size() < 300);
  REQUIRE_THAT(what, Catch::Contains("xxx...xxx") && Catch::Contains("xxx (1000000 characters)\""));
  REQUIRE(excerpt("short") == "short");
  REQUIRE(number_text(100000.0) == "100000");
  REQUIRE(number_text(0.25) == "0.25");
  REQUIRE(number_text(1e300) == "1e+300");
}
