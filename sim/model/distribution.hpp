#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/model/rng.hpp"

namespace acme::model {

/// A configurable distribution of a non-negative quantity (seconds, usually): fixed, uniform,
/// exponential, lognormal (by median and sigma of the log) or Weibull, optionally clamped.
struct Distribution {
  enum class Kind : std::uint8_t { FIXED, UNIFORM, EXPONENTIAL, LOGNORMAL, WEIBULL };
  Kind kind = Kind::FIXED;
  double a = 0.0;   ///< fixed: value; uniform: low; exponential: mean; lognormal: median; weibull: scale
  double b = 0.0;   ///< uniform: high; lognormal: sigma; weibull: shape
  double min = 0.0; ///< samples are clamped to [min, max]
  double max = 1e300;

  double sample(Rng& rng) const {
    double v = a;
    switch (kind) {
    case Kind::FIXED:
      break;
    case Kind::UNIFORM:
      v = rng.uniform(a, b);
      break;
    case Kind::EXPONENTIAL:
      v = rng.exponential(a);
      break;
    case Kind::LOGNORMAL:
      v = a * std::exp(rng.normal(0.0, b));
      break;
    case Kind::WEIBULL:
      v = rng.weibull(b, a);
      break;
    }
    return std::clamp(v, min, max);
  }
  /// The mean before clamping (for closed forms and reports).
  double mean() const {
    switch (kind) {
    case Kind::FIXED:
      return a;
    case Kind::UNIFORM:
      return (a + b) / 2.0;
    case Kind::EXPONENTIAL:
      return a;
    case Kind::LOGNORMAL:
      return a * std::exp(b * b / 2.0);
    case Kind::WEIBULL:
      return a * std::tgamma(1.0 + 1.0 / b);
    }
    return a;
  }
  static Distribution fixed(double value) { return {Kind::FIXED, value, 0.0, 0.0, 1e300}; }
};

} // namespace acme::model
