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

/// The text parse_duration_distribution reads back as `d`: "30s" (fixed, unclamped) or a flow mapping
/// such as "{dist: lognormal, median: 20min, sigma: 0.8}".
std::string describe_duration_distribution(const model::Distribution& d);

} // namespace acme::config
