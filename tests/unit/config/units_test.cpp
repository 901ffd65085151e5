#include <catch2/catch.hpp>

#include "sim/config/units.hpp"

using namespace acme::config;

TEST_CASE("config::units: quantities with units", "[config][units]") {
  REQUIRE(parse_bytes("80GiB").value == Approx(80.0 * 1024 * 1024 * 1024));
  REQUIRE(parse_bytes("1.5TB").value == Approx(1.5e12));
  REQUIRE(parse_bytes("512").value == Approx(512));
  REQUIRE(parse_bandwidth_Bps("200Gbps").value == Approx(25e9));
  REQUIRE(parse_bandwidth_Bps("25GBps").value == Approx(25e9));
  REQUIRE(parse_duration_s("30min").value == Approx(1800));
  REQUIRE(parse_duration_s("2h").value == Approx(7200));
  REQUIRE(parse_duration_s("1d").value == Approx(86400));
  REQUIRE(parse_duration_s(" 90 s ").value == Approx(90));
  REQUIRE(parse_power_W("1.2kW").value == Approx(1200));
  REQUIRE(parse_utc_offset_s("+08:00").value == Approx(28800));
  REQUIRE(parse_utc_offset_s("-05:30").value == Approx(-19800));
  REQUIRE(parse_utc_offset_s("UTC").value == 0.0);
}

TEST_CASE("config::units: bad units say what is expected", "[config][units]") {
  auto q = parse_bandwidth_Bps("25GBs");
  REQUIRE_THAT(q.error, Catch::Contains("unknown unit \"GBs\"") && Catch::Contains("\"200Gbps\" or \"25GBps\""));
  REQUIRE_THAT(parse_duration_s("soon").error, Catch::Contains("expected a duration"));
  REQUIRE_FALSE(parse_utc_offset_s("+8h").error.empty());
  REQUIRE_FALSE(parse_utc_offset_s("+15:00").error.empty());
}

TEST_CASE("config::units: values are bounded after conversion", "[config][units]") {
  REQUIRE_THAT(parse_bandwidth_Bps("1e308GBps").error, Catch::Contains("expected a bandwidth of at most 1PBps"));
  REQUIRE_THAT(parse_bandwidth_Bps("inf").error, Catch::Contains("expected a bandwidth such as"));
  REQUIRE_THAT(parse_bytes("1e30").error, Catch::Contains("at most 1EB"));
  REQUIRE_THAT(parse_duration_s("1e300").error, Catch::Contains("at most 3650d"));
  REQUIRE_THAT(parse_power_W("2000MW").error, Catch::Contains("at most 1GW"));
  REQUIRE(parse_duration_s("3650d").error.empty());
  REQUIRE_FALSE(parse_utc_offset_s("+14:30").error.empty());
  REQUIRE(parse_utc_offset_s("-14:00").value == Approx(-14 * 3600.0));
}
