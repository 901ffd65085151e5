#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "validate/checkpoint/interval_fit.hpp"

using acme::validate::fitted_minimum;

TEST_CASE("validate::interval_fit: finds the minimum of a parabola in log(x) between samples",
          "[validate][interval_fit]") {
  const double optimum = 2600.0;
  std::vector<double> xs = {1000, 1400, 1800, 2200, 2600 * 1.1, 3800, 4500, 5400};
  std::vector<double> ys;
  for (double x : xs) {
    double u = std::log(x / optimum);
    ys.push_back(118000.0 + 9000.0 * u * u);
  }
  REQUIRE(fitted_minimum(xs, ys) == Approx(optimum).epsilon(1e-6));
}

TEST_CASE("validate::interval_fit: a curve that opens downwards gives the lowest interior sample",
          "[validate][interval_fit]") {
  std::vector<double> xs = {1, 2, 4, 8, 16};
  std::vector<double> ys;
  for (double x : xs) {
    ys.push_back(-std::log(x) * std::log(x)); // lowest at the last sample; the fit is concave
  }
  REQUIRE(fitted_minimum(xs, ys) == 8.0); // the last interior sample: the minimum is never an end point
}
