#include "sim/core/latent_faults.hpp"

#include <algorithm>

namespace acme::core {

LatentFaults::LatentFaults(const config::FailureConfig& config, const std::vector<std::uint32_t>& nodes_per_cluster,
                           TimerService& timer, model::ClusterRngs& rng)
    : config_(config)
    , timer_(timer)
    , rng_(rng)
    , latent_(nodes_per_cluster.size())
    , counts_(nodes_per_cluster.size()) {
  for (std::uint32_t nodes : nodes_per_cluster) {
    category_.emplace_back(nodes, -1);
  }
}

void LatentFaults::start() {
  if (!config_.has_latent_faults() || config_.health_check.interval_s <= 0.0) { // nothing a check could find
    return;
  }
  for (std::size_t c = 0; c < category_.size(); ++c) {
    timer_.schedule(timer_.now_s() + config_.health_check.interval_s,
                    HealthCheck{model::ClusterId{static_cast<std::uint16_t>(c)}});
  }
}

void LatentFaults::strike(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) {
  std::size_t c = model::to_index(cluster);
  category_[c].at(node) = static_cast<std::int32_t>(category);
  latent_[c].push_back(node);
  ++counts_[c].struck;
}

void LatentFaults::job_lands(model::ClusterId cluster, std::uint32_t node) {
  std::size_t c = model::to_index(cluster);
  if (category_[c].at(node) < 0) {
    return;
  }
  ++counts_[c].found_at_start;
  reveal(cluster, node, timer_.now_s(), TracedFailure::Found::BY_JOB);
}

void LatentFaults::on(const HealthCheck& event) {
  std::size_t c = model::to_index(event.cluster);
  ++counts_[c].checks;
  std::vector<std::uint32_t> checked = latent_[c]; // reveal() edits the list
  for (std::uint32_t node : checked) {
    if (rng_.of(event.cluster).uniform() < config_.health_check.coverage) {
      ++counts_[c].found_by_check;
      reveal(event.cluster, node, timer_.now_s() + config_.health_check.duration_s, TracedFailure::Found::BY_CHECK);
    }
  }
  timer_.schedule(timer_.now_s() + config_.health_check.interval_s, HealthCheck{event.cluster});
}

void LatentFaults::reveal(model::ClusterId cluster, std::uint32_t node, double at_s, TracedFailure::Found found) {
  std::size_t c = model::to_index(cluster);
  auto category = static_cast<std::uint32_t>(category_[c].at(node));
  category_[c][node] = -1;
  latent_[c].erase(std::find(latent_[c].begin(), latent_[c].end(), node));
  timer_.schedule(at_s, TracedFailure{cluster, node, category, -1.0, found});
}

} // namespace acme::core
