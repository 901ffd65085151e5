#include "sim/core/pod_launch.hpp"

#include <algorithm>
#include <cmath>

namespace acme::core {

PodLaunch::PodLaunch(const config::PodConfig& config, std::uint32_t nodes, std::uint32_t cpu_servers,
                     std::uint64_t seed, const std::string& cluster)
    : config_(config)
    , rng_(seed, "engine/pods/" + cluster)
    , cpu_node_rng_(seed, "engine/pods/" + cluster + "/cpu-node")
    , nodes_(nodes)
    , cpu_servers_(cpu_servers) {
  if (config_.pulls()) {
    cache_.resize(static_cast<std::size_t>(nodes) + cpu_servers);
  }
}

std::uint64_t PodLaunch::image_of(const model::JobSpec& job) const {
  std::uint64_t variant = static_cast<std::uint64_t>(job.type) % config_.images_per_user;
  return model::to_index(job.user) * config_.images_per_user + variant;
}

double PodLaunch::image_bytes(std::uint64_t image) {
  auto [it, fresh] = bytes_.try_emplace(image, config_.image_bytes);
  if (fresh && config_.image_size_sigma > 0.0) {
    it->second = config_.image_bytes * std::exp(rng_.normal(0.0, config_.image_size_sigma));
  }
  return it->second;
}

bool PodLaunch::touch(std::uint32_t node, std::uint64_t image) {
  std::vector<std::uint64_t>& held = cache_[node];
  auto it = std::find(held.begin(), held.end(), image);
  bool hit = it != held.end();
  if (hit) {
    held.erase(it);
  } else if (held.size() >= (node < nodes_ ? config_.cache_images : config_.cpu_cache_images)) {
    held.erase(held.begin()); // the least recently used
  }
  held.push_back(image);
  return hit;
}

PodTimes PodLaunch::start(const model::JobSpec& job, const model::Placement& placement, double now_s) {
  PodTimes t{now_s, now_s};
  if (config_.bind_rate_per_s > 0.0) {
    double pods = placement.empty() ? 1.0 : static_cast<double>(placement.size());
    double begin_s = std::max(now_s, binder_free_s_);
    binder_free_s_ = begin_s + pods / config_.bind_rate_per_s;
    t.bound_s = binder_free_s_;
  }
  t.pulled_s = config_.pulls() ? pulled_s(image_of(job), placement, t.bound_s) : t.bound_s;
  return t;
}

double PodLaunch::pulled_s(std::uint64_t image, const model::Placement& placement, double bound_s) {
  std::uint32_t pulling = 0;
  if (placement.empty() && cpu_servers_ > 0) {
    auto server = nodes_ + static_cast<std::uint32_t>(cpu_node_rng_.below(cpu_servers_));
    pulling = touch(server, image) ? 0 : 1;
  }
  for (const auto& share : placement) {
    pulling += touch(model::to_index(share.node), image) ? 0 : 1;
  }
  if (pulling == 0) {
    return bound_s;
  }
  double rate = std::min(config_.pull_bw_Bps, config_.registry_bw_Bps / pulling);
  return bound_s + image_bytes(image) / rate;
}

} // namespace acme::core
