#include "sim/core/slow_nodes.hpp"

#include <algorithm>
#include <utility>

#include "sim/model/units.hpp"

namespace acme::core {
namespace {
constexpr double PER_THOUSAND = 1000.0;
} // namespace

SlowNodes::SlowNodes(const config::SlowConfig& config, JobTable& table, TimerService& timer, model::ClusterRngs& rng,
                     PaceSink sink, EvictSink evict)
    : config_(config)
    , table_(table)
    , timer_(timer)
    , rng_(rng)
    , sink_(std::move(sink))
    , evict_(std::move(evict)) {
  for (const auto& c : table_.clusters) {
    std::uint32_t nodes = c.view.shape().nodes;
    speed_.emplace_back(nodes, 1.0);
    until_s_.emplace_back(nodes, 0.0);
    periods_.emplace_back(nodes, 0);
    generation_.emplace_back(nodes, 0);
  }
}

void SlowNodes::start() {
  if (!config_.enabled()) {
    return;
  }
  for (std::size_t c = 0; c < speed_.size(); ++c) {
    for (std::uint32_t n = 0; n < speed_[c].size(); ++n) {
      draw_next(model::ClusterId{static_cast<std::uint16_t>(c)}, n);
    }
  }
}

void SlowNodes::draw_next(model::ClusterId cluster, std::uint32_t node) {
  double rate_per_s = config_.rate_per_1000_node_days / PER_THOUSAND / model::SECONDS_PER_DAY;
  std::uint32_t& generation = generation_[model::to_index(cluster)][node];
  ++generation;
  timer_.schedule(timer_.now_s() + rng_.of(cluster).exponential(1.0 / rate_per_s),
                  NodeSlowed{cluster, node, generation});
}

void SlowNodes::on(const NodeSlowed& event) {
  auto c = model::to_index(event.cluster);
  if (generation_[c][event.node] != event.generation) {
    return;
  }
  ++generation_[c][event.node]; // one onset per draw
  speed_[c][event.node] = config_.speed;
  ++periods_[c][event.node];
  until_s_[c][event.node] = timer_.now_s() + config_.duration.sample(rng_.of(event.cluster));
  timer_.schedule(until_s_[c][event.node], NodeSpedUp{event.cluster, event.node});
  if (config_.evicts() && evict_) {
    timer_.schedule(timer_.now_s() + config_.evict_after_s,
                    SlowNoticed{event.cluster, event.node, generation_[c][event.node]});
  }
  repace_jobs_on(event.cluster, event.node);
}

void SlowNodes::on(const SlowNoticed& event) {
  auto c = model::to_index(event.cluster);
  if (generation_[c][event.node] != event.generation || timer_.now_s() >= until_s_[c][event.node]) {
    return; // its slow period ended meanwhile
  }
  if (table_.cluster(event.cluster).jobs_on_node[event.node].empty()) {
    // Idle: it slows nobody down now; a job landing later gets it noticed after another evict_after.
    timer_.schedule(timer_.now_s() + config_.evict_after_s, event);
    return;
  }
  evict_(event.cluster, event.node, until_s_[c][event.node] - timer_.now_s());
}

void SlowNodes::on(const NodeSpedUp& event) {
  speed_[model::to_index(event.cluster)][event.node] = 1.0;
  repace_jobs_on(event.cluster, event.node);
  draw_next(event.cluster, event.node); // the next slow period comes after this one
}

double SlowNodes::pace(model::ClusterId cluster, const model::Placement& placement) const {
  double slowest = 1.0;
  for (const auto& share : placement) {
    slowest = std::min(slowest, speed(cluster, model::to_index(share.node)));
  }
  return slowest;
}

void SlowNodes::repace_jobs_on(model::ClusterId cluster, std::uint32_t node) {
  ClusterRuntime& runtime = table_.cluster(cluster);
  std::vector<model::JobId> on_node = runtime.jobs_on_node[node]; // the sink may change placements
  for (model::JobId id : on_node) {
    if (JobRuntime* job = table_.find(id)) {
      sink_(id, *job, pace(cluster, runtime.view.job(id).placement));
    }
  }
}

} // namespace acme::core
