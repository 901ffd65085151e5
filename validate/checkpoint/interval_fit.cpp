#include "validate/checkpoint/interval_fit.hpp"

#include <algorithm>
#include <cmath>

namespace acme::validate {
namespace {

double det3(double a, double b, double c, double d, double e, double f, double g, double h, double i) {
  return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
}

} // namespace

double fitted_minimum(const std::vector<double>& xs, const std::vector<double>& ys) {
  std::size_t best = static_cast<std::size_t>(std::min_element(ys.begin(), ys.end()) - ys.begin());
  best = std::clamp<std::size_t>(best, 1, xs.size() - 2);
  // Least-squares parabola in u = log(x) through the five points around the minimum.
  std::size_t lo = best >= 2 ? best - 2 : 0;
  std::size_t hi = std::min(xs.size() - 1, best + 2);
  double s[5] = {0, 0, 0, 0, 0};
  double t[3] = {0, 0, 0};
  for (std::size_t i = lo; i <= hi; ++i) {
    double u = std::log(xs[i]);
    double p = 1.0;
    for (double& sk : s) {
      sk += p;
      p *= u;
    }
    t[0] += ys[i];
    t[1] += ys[i] * u;
    t[2] += ys[i] * u * u;
  }
  // Normal equations [s0 s1 s2; s1 s2 s3; s2 s3 s4] [c0 c1 c2] = t, solved by Cramer's rule.
  double d = det3(s[0], s[1], s[2], s[1], s[2], s[3], s[2], s[3], s[4]);
  double c1 = det3(s[0], t[0], s[2], s[1], t[1], s[3], s[2], t[2], s[4]) / d;
  double c2 = det3(s[0], s[1], t[0], s[1], s[2], t[1], s[2], s[3], t[2]) / d;
  return c2 > 0.0 ? std::exp(-c1 / (2.0 * c2)) : xs[best];
}

} // namespace acme::validate
