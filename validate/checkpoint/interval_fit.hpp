#pragma once

#include <vector>

namespace acme::validate {

/// Minimum of a smooth curve sampled at increasing xs (at least three points): a least-squares
/// parabola in log(x) through the lowest sample and up to two neighbours on each side; the lowest
/// sample's x when the parabola does not open upwards.
double fitted_minimum(const std::vector<double>& xs, const std::vector<double>& ys);

} // namespace acme::validate
