#pragma once

#include <cstdint>
#include <string_view>

#include "sim/model/rng.hpp"

namespace acme::workloads::synthetic {

/// A randomly shifted van der Corput sequence in base 2 (a (0,1)-sequence under a random digital shift,
/// Owen 1995): the first N values fill [0, 1) so evenly that every interval holds its expected number of
/// them to within O(log N). Drawing a discrete choice through it makes the counts track their
/// expectations far closer than independent draws, which is what heavy-tailed totals (GPU time held by
/// a few long jobs) need. Each stream is seeded from the run seed and a name; different seeds shift it.
class QuasiUniform {
public:
  QuasiUniform(std::uint64_t seed, std::string_view name) : shift_(model::Rng(seed, name).next_u64() >> UNUSED_BITS) {}

  /// The next value in (0, 1).
  double next() {
    std::uint64_t bits = reverse_bits(index_++) >> UNUSED_BITS;
    return (static_cast<double>(bits ^ shift_) + HALF_STEP) * STEP;
  }

private:
  static constexpr int UNUSED_BITS = 11; // 64 - 53 bits of a double's mantissa
  static constexpr double STEP = 0x1.0p-53;
  static constexpr double HALF_STEP = 0.5;
  /// Bit reversal by swapping ever larger groups (Hacker's Delight 7-1).
  static std::uint64_t reverse_bits(std::uint64_t x) {
    constexpr std::uint64_t ODD_BITS = 0x5555555555555555ULL;
    constexpr std::uint64_t BIT_PAIRS = 0x3333333333333333ULL;
    constexpr std::uint64_t NIBBLES = 0x0F0F0F0F0F0F0F0FULL;
    x = ((x >> 1) & ODD_BITS) | ((x & ODD_BITS) << 1);
    x = ((x >> 2) & BIT_PAIRS) | ((x & BIT_PAIRS) << 2);
    x = ((x >> 4) & NIBBLES) | ((x & NIBBLES) << 4);
    return __builtin_bswap64(x);
  }

  std::uint64_t index_ = 0;
  std::uint64_t shift_;
};

} // namespace acme::workloads::synthetic
