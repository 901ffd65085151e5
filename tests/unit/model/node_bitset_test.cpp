#include <catch2/catch.hpp>

#include "sim/model/node_bitset.hpp"

using acme::model::NodeBitset;

TEST_CASE("model::node_bitset: ordered iteration across words", "[model][bitset]") {
  NodeBitset set(200);
  for (std::size_t i : {3u, 64u, 65u, 199u}) {
    set.set(i);
  }
  set.set(3); // idempotent
  REQUIRE(set.count() == 4);
  std::vector<std::size_t> seen;
  for (std::size_t i = set.find_first(); i != NodeBitset::NPOS; i = set.find_next(i + 1)) {
    seen.push_back(i);
  }
  REQUIRE(seen == std::vector<std::size_t>{3, 64, 65, 199});
  set.reset(64);
  REQUIRE(set.find_next(4) == 65);
  REQUIRE(set.find_next(200) == NodeBitset::NPOS);
}
