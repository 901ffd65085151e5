#include <catch2/catch.hpp>

#include <cstdint>
#include <map>

#include "sim/model/id_table.hpp"
#include "sim/model/rng.hpp"

using namespace acme;
using model::JobId;

TEST_CASE("model::id_table: dense ids, far ids and ids the vector grows past all keep their values",
          "[model][id_table]") {
  model::IdTable<std::uint32_t> table;
  std::map<std::uint64_t, std::uint32_t> expected;
  auto put = [&](std::uint64_t id, std::uint32_t value) {
    table.set(JobId{id}, value);
    expected[id] = value;
  };
  put(std::uint64_t{1} << 62, 7); // a job spawned by a task plan
  put(100000, 3);                 // far past the (empty) vector: kept aside
  for (std::uint64_t id = 0; id < 120000; ++id) {
    if (id != 100000) {
      put(id, static_cast<std::uint32_t>(id % 97 + 1)); // the vector grows past 100000 on the way
    }
  }
  put(100000, 4); // now inside the vector: the value set before must not shadow it
  model::Rng rng(1, "test/id_table");
  for (int i = 0; i < 20000; ++i) {
    auto id = rng.below(120000);
    table.erase(JobId{id});
    expected.erase(id);
  }
  for (std::uint64_t id = 0; id < 130000; ++id) {
    auto it = expected.find(id);
    REQUIRE(table.get(JobId{id}) == (it == expected.end() ? 0U : it->second));
  }
  REQUIRE(table.get(JobId{std::uint64_t{1} << 62}) == 7);
  table.erase(JobId{std::uint64_t{1} << 62});
  REQUIRE(table.get(JobId{std::uint64_t{1} << 62}) == 0);
}
