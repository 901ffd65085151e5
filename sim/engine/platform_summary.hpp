#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace acme::engine {

/// What was built, for the run's banner and for tests.
struct PlatformSummary {
  struct Cluster {
    std::string name;
    std::uint32_t nodes = 0;
    std::uint32_t gpus = 0;
    std::uint32_t leaves = 0;
    double storage_bw_Bps = 0.0;
  };
  std::vector<Cluster> clusters;
  std::uint32_t total_gpus = 0;
  std::size_t hosts = 0;
  std::size_t links = 0;
};

} // namespace acme::engine
