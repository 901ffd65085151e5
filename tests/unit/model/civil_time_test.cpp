#include <catch2/catch.hpp>

#include "sim/model/civil_time.hpp"

using namespace acme::model;

TEST_CASE("model::civil_time: AcmeTrace timestamps round-trip with their offsets", "[model][time]") {
  auto t = parse_datetime("2023-03-01 00:18:22+08:00");
  REQUIRE(t.has_value());
  REQUIRE(*t == Approx(1677601102.0)); // 2023-02-28T16:18:22Z
  REQUIRE(format_datetime(*t, 8 * 3600.0) == "2023-03-01 00:18:22+08:00");
  REQUIRE(format_datetime(*t, 0.0) == "2023-02-28 16:18:22+00:00");
  REQUIRE(parse_datetime("2023-02-28T16:18:22Z").value() == Approx(*t));
  REQUIRE(parse_datetime("2023-02-28 16:18:22", 0.0).value() == Approx(*t));
  REQUIRE(parse_datetime("2023-02-28 16:18:22.5+00:00").value() == Approx(*t + 0.5));
  REQUIRE(format_datetime(-1.0, 0.0) == "1969-12-31 23:59:59+00:00");
}

TEST_CASE("model::civil_time: malformed timestamps are refused", "[model][time]") {
  for (const char* bad :
       {"", "2023-03-01", "2023-13-01 00:00:00", "2023-03-01 25:00:00", "2023-03-01 00:00:00+8", "yesterday at noon"}) {
    CAPTURE(bad);
    REQUIRE_FALSE(parse_datetime(bad).has_value());
  }
}

TEST_CASE("model::civil_time: dates that do not exist, far years and wide offsets are refused", "[model][time]") {
  std::string why;
  REQUIRE_FALSE(parse_datetime("2023-02-29 00:00:00", 0.0, &why).has_value());
  REQUIRE(why == "no such date");
  REQUIRE(parse_datetime("2024-02-29 00:00:00").has_value()); // a leap year
  REQUIRE_FALSE(parse_datetime("2100-02-29 00:00:00").has_value());
  REQUIRE_FALSE(parse_datetime("2023-04-31 00:00:00").has_value());
  REQUIRE_FALSE(parse_datetime("0001-01-01 00:00:00", 0.0, &why).has_value());
  REQUIRE(why == "a year outside 1970..2199");
  REQUIRE_FALSE(parse_datetime("2023-03-01 00:00:00+99:00", 0.0, &why).has_value());
  REQUIRE(why == "a UTC offset beyond +-14:00");
  REQUIRE(parse_datetime("2023-03-01 00:00:00+14:00").has_value());
  REQUIRE_FALSE(parse_datetime("2023-03-01 00:00:00+08:60").has_value());
}
