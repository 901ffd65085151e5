#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace acme::model {

/// A fixed-size set of node indices with ordered iteration (lowest index first), so that placement
/// decisions are deterministic and cheap: a 300-node cluster is five 64-bit words.
class NodeBitset {
public:
  static constexpr std::size_t NPOS = std::numeric_limits<std::size_t>::max();

  explicit NodeBitset(std::size_t size = 0) : size_(size), words_((size + WORD_BITS - 1) / WORD_BITS, 0) {}

  std::size_t size() const { return size_; }
  std::size_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool test(std::size_t i) const { return ((words_[i / WORD_BITS] >> (i % WORD_BITS)) & 1U) != 0; }

  void set(std::size_t i) {
    if (!test(i)) {
      words_[i / WORD_BITS] |= bit(i);
      ++count_;
    }
  }
  void reset(std::size_t i) {
    if (test(i)) {
      words_[i / WORD_BITS] &= ~bit(i);
      --count_;
    }
  }

  /// Lowest member >= from, or NPOS.
  std::size_t find_next(std::size_t from) const {
    if (from >= size_) {
      return NPOS;
    }
    std::size_t w = from / WORD_BITS;
    std::uint64_t word = words_[w] & (~std::uint64_t{0} << (from % WORD_BITS));
    while (true) {
      if (word != 0) {
        return w * WORD_BITS + static_cast<std::size_t>(std::countr_zero(word));
      }
      if (++w == words_.size()) {
        return NPOS;
      }
      word = words_[w];
    }
  }
  std::size_t find_first() const { return find_next(0); }
  /// The bits, 64 nodes per word (node i: bit i % 64 of word i / 64).
  const std::vector<std::uint64_t>& words() const { return words_; }

  friend bool operator==(const NodeBitset&, const NodeBitset&) = default;

private:
  static constexpr std::size_t WORD_BITS = 64;
  static std::uint64_t bit(std::size_t i) { return std::uint64_t{1} << (i % WORD_BITS); }

  std::size_t size_ = 0;
  std::size_t count_ = 0;
  std::vector<std::uint64_t> words_;
};

} // namespace acme::model
