#include "sim/core/link_failures.hpp"

#include <utility>

#include "sim/model/units.hpp"

namespace acme::core {

LinkFailures::LinkFailures(const config::FailureConfig& config, std::vector<std::uint32_t> uplinks_per_leaf,
                           std::vector<std::uint32_t> leaves, TimerService& timer, model::ClusterRngs& rng,
                           FabricService& fabric)
    : config_(config)
    , uplinks_(std::move(uplinks_per_leaf))
    , timer_(timer)
    , rng_(rng)
    , fabric_(fabric) {
  for (std::uint32_t n : leaves) {
    down_.emplace_back(n, 0);
    generation_.emplace_back(n, 0);
  }
}

void LinkFailures::start() {
  if (!config_.enabled || config_.spine_link_rate_per_link_day <= 0.0) {
    return;
  }
  for (std::size_t c = 0; c < down_.size(); ++c) {
    for (std::uint32_t leaf = 0; leaf < down_[c].size(); ++leaf) {
      draw_next(model::ClusterId{static_cast<std::uint16_t>(c)}, leaf);
    }
  }
}

void LinkFailures::draw_next(model::ClusterId cluster, std::uint32_t leaf) {
  auto c = model::to_index(cluster);
  std::uint32_t& generation = generation_[c][leaf];
  ++generation;
  std::uint32_t up = uplinks_[c] - down_[c][leaf];
  if (up == 0) {
    return; // every link is down: the next failure comes after a repair
  }
  // The leaf's links fail independently: the first of `up` exponential clocks.
  double rate = config_.spine_link_rate_per_link_day * up / model::SECONDS_PER_DAY;
  timer_.schedule(timer_.now_s() + rng_.of(cluster).exponential(1.0 / rate),
                  SpineLinkFailed{cluster, leaf, generation});
}

void LinkFailures::on(const SpineLinkFailed& event) {
  auto c = model::to_index(event.cluster);
  if (generation_[c][event.leaf] != event.generation) {
    return; // drawn before the leaf's last change
  }
  std::uint32_t& down = down_[c][event.leaf];
  ++down;
  fabric_.set_uplinks_down(event.cluster, event.leaf, down);
  timer_.schedule(timer_.now_s() + config_.spine_link_repair.sample(rng_.of(event.cluster)),
                  SpineLinkRepaired{event.cluster, event.leaf});
  draw_next(event.cluster, event.leaf);
}

void LinkFailures::on(const SpineLinkRepaired& event) {
  auto c = model::to_index(event.cluster);
  std::uint32_t& down = down_[c][event.leaf];
  --down;
  fabric_.set_uplinks_down(event.cluster, event.leaf, down);
  draw_next(event.cluster, event.leaf);
}

} // namespace acme::core
