// Validation of a cluster's `pods:` section: Kubernetes' binding throughput and image pulls.
#include "sim/config/schema_pods.hpp"

#include <utility>

#include "sim/model/limits.hpp"

namespace acme::config {
namespace {

constexpr double MAX_BIND_RATE_PER_S = 1e6; // pods bound per second: far above any kube-scheduler
constexpr double MAX_SIZE_SIGMA = 5.0;      // of the log: beyond it image sizes span > 10^4x at 2 sigma
constexpr std::uint32_t MAX_IMAGES = 10'000;

} // namespace

PodConfig parse_pods(const Node& node) {
  PodConfig p;
  if (!node.is_defined()) {
    return p;
  }
  node.expect_keys({"bind_rate", "image_size", "image_size_sigma", "pull_bandwidth", "registry_bandwidth",
                    "images_per_user", "cache_images", "cpu_cache_images"});
  if (Node rate = node["bind_rate"]; rate.is_defined()) {
    p.bind_rate_per_s = rate.as_double_in(0.0, MAX_BIND_RATE_PER_S, "pods per second in [0, 1e6] (0: bound at once)");
  }
  p.image_bytes = node.get_or("image_size", 0.0, &Node::as_bytes);
  if (Node s = node["image_size_sigma"]; s.is_defined()) {
    p.image_size_sigma = s.as_double_in(0.0, MAX_SIZE_SIGMA, "a spread of the log in [0, 5]");
  }
  for (auto [key, field] :
       {std::pair{"images_per_user", &p.images_per_user}, std::pair{"cache_images", &p.cache_images},
        std::pair{"cpu_cache_images", &p.cpu_cache_images}}) {
    if (Node n = node[key]; n.is_defined()) {
      *field = n.as_count_upto(MAX_IMAGES);
    }
  }
  if (!node["cpu_cache_images"].is_defined()) {
    p.cpu_cache_images = p.cache_images;
  }
  if (!p.pulls()) {
    for (const char* key : {"image_size_sigma", "pull_bandwidth", "registry_bandwidth", "images_per_user",
                            "cache_images", "cpu_cache_images"}) {
      if (node[key].is_defined()) {
        node[key].fail("needs image_size; expected image_size (e.g. 10GB) with it");
      }
    }
    return p;
  }
  if (!node["pull_bandwidth"].is_defined()) {
    node.fail("image_size needs pull_bandwidth (one node's pull from the registry, e.g. 200MBps)");
  }
  p.pull_bw_Bps = node["pull_bandwidth"].as_bandwidth_Bps();
  p.registry_bw_Bps = node.get_or("registry_bandwidth", p.registry_bw_Bps, &Node::as_bandwidth_Bps);
  return p;
}

} // namespace acme::config
