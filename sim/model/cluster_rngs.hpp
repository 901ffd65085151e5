#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/model/ids.hpp"
#include "sim/model/rng.hpp"

namespace acme::model {

/// One random stream per cluster for a consumer whose draws must not depend on what happens in another
/// cluster: stream "<name>/<cluster name>" of the run seed. With one stream shared by all clusters, the
/// draws of one cluster's events would shift those of every other (a change to Seren's workload moved
/// Kalos's launch latencies and recovery delays).
class ClusterRngs {
public:
  ClusterRngs(std::uint64_t seed, std::string_view name, const std::vector<std::string>& clusters) {
    rngs_.reserve(clusters.size());
    for (const std::string& cluster : clusters) {
      rngs_.emplace_back(seed, std::string(name) + "/" + cluster);
    }
  }
  Rng& of(ClusterId cluster) { return rngs_.at(to_index(cluster)); }

private:
  std::vector<Rng> rngs_;
};

} // namespace acme::model
