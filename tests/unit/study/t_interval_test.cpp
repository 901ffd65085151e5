#include <catch2/catch.hpp>

#include <cmath>

#include "sim/study/t_interval.hpp"

using acme::study::student_t_critical;
using acme::study::t_interval;

TEST_CASE("study::t_interval: Student t critical values match the tables", "[study][stats]") {
  // Two-sided 95% critical values (NIST/SEMATECH e-Handbook, table 1.3.6.7.2).
  REQUIRE(student_t_critical(1, 0.95) == Approx(12.706).margin(5e-4));
  REQUIRE(student_t_critical(2, 0.95) == Approx(4.303).margin(5e-4));
  REQUIRE(student_t_critical(3, 0.95) == Approx(3.182).margin(5e-4));
  REQUIRE(student_t_critical(4, 0.95) == Approx(2.776).margin(5e-4));
  REQUIRE(student_t_critical(5, 0.95) == Approx(2.571).margin(5e-4));
  REQUIRE(student_t_critical(10, 0.95) == Approx(2.228).margin(5e-4));
  REQUIRE(student_t_critical(30, 0.95) == Approx(2.042).margin(5e-4));
  REQUIRE(student_t_critical(100, 0.95) == Approx(1.984).margin(5e-4));
  REQUIRE(student_t_critical(2000, 0.95) == Approx(1.961).margin(5e-4)); // tends to the normal 1.960
  REQUIRE(student_t_critical(9, 0.99) == Approx(3.250).margin(5e-4));
}

TEST_CASE("study::t_interval: mean and half width of replicas", "[study][stats]") {
  auto three = t_interval({1.0, 2.0, 3.0}, 0.95);
  REQUIRE(three.n == 3);
  REQUIRE(three.has_interval);
  REQUIRE(three.mean == Approx(2.0));
  // s = 1, t(2) = 4.303: 4.303 / sqrt(3)
  REQUIRE(three.half_width == Approx(4.302653 / std::sqrt(3.0)).epsilon(1e-6));
  auto same = t_interval({5.0, 5.0, 5.0, 5.0}, 0.95);
  REQUIRE(same.half_width == 0.0);
  auto one = t_interval({42.0}, 0.95);
  REQUIRE(one.mean == 42.0);
  REQUIRE_FALSE(one.has_interval);
  REQUIRE(t_interval({}, 0.95).n == 0);
}
