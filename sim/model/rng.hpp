#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string_view>

namespace acme::model {

/// The run's random number generator: xoshiro256** seeded through splitmix64. Every consumer takes
/// its own stream, derived from the run seed and a stream name, so adding randomness in one place
/// never shifts the numbers drawn elsewhere. Distributions are implemented here (not <random>) so
/// the same seed gives the same numbers with any standard library.
class Rng {
public:
  explicit Rng(std::uint64_t seed) { reseed(seed); }
  /// The stream `name` of run seed `seed`.
  Rng(std::uint64_t seed, std::string_view name) { reseed(seed ^ hash(name)); }

  std::uint64_t next_u64() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  /// Uniform in (0, 1]: safe for log().
  double uniform_open0() { return 1.0 - uniform(); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Uniform integer in [0, n).
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next_u64() % n; }
  bool bernoulli(double p) { return uniform() < p; }
  double exponential(double mean) { return -mean * std::log(uniform_open0()); }
  double normal(double mean, double stddev) {
    double u1 = uniform_open0();
    double u2 = uniform();
    return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  /// exp(N(mu, sigma)).
  double lognormal(double mu, double sigma) { return std::exp(normal(mu, sigma)); }
  /// Weibull with the given shape k and scale lambda.
  double weibull(double shape, double scale) { return scale * std::pow(-std::log(uniform_open0()), 1.0 / shape); }

  static constexpr std::uint64_t hash(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a
    for (char c : text) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ULL;
    }
    return h;
  }

private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  void reseed(std::uint64_t seed) {
    for (auto& word : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }
  std::uint64_t s_[4] = {};
};

} // namespace acme::model
