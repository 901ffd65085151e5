#pragma once

#include "sim/config/node.hpp"
#include "sim/model/distribution.hpp"

namespace acme::config {

/// Reads a distribution of durations:
///   "30s"                                        fixed
///   {dist: fixed, value: 30s}
///   {dist: uniform, low: 8s, high: 20s}
///   {dist: exponential, mean: 4h}
///   {dist: lognormal, median: 14s, sigma: 0.3, min: 8s, max: 2min}
///   {dist: weibull, scale: 6h, shape: 0.7}
/// with located errors for unknown kinds and keys.
model::Distribution parse_duration_distribution(const Node& node);

} // namespace acme::config
