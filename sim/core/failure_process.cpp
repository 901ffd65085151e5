#include "sim/core/failure_process.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/model/units.hpp"

namespace acme::core {
namespace {
std::vector<std::uint32_t> nodes_per_cluster(const std::vector<FailureShape>& clusters) {
  std::vector<std::uint32_t> out;
  for (const auto& c : clusters) {
    out.push_back(c.nodes);
  }
  return out;
}
} // namespace

FailureProcess::FailureProcess(const config::FailureConfig& config, std::vector<FailureShape> clusters,
                               TimerService& timer, model::ClusterRngs& rng, NodeAvailability& nodes,
                               FailureHooks& hooks)
    : config_(config)
    , clusters_(std::move(clusters))
    , timer_(timer)
    , rng_(rng)
    , nodes_(nodes)
    , hooks_(hooks)
    , latent_(config, nodes_per_cluster(clusters_), timer, rng) {
  for (const auto& c : clusters_) {
    generation_.emplace_back(c.nodes, 0);
    NodeTally fresh;
    fresh.failures.assign(config_.category_count(), 0);
    tally_.emplace_back(c.nodes, fresh);
    detected_.emplace_back(config_.category_count());
  }
}

void FailureProcess::start(const std::vector<FailureTraceRow>& trace) {
  for (const FailureTraceRow& f : trace) {
    timer_.schedule(std::max(f.time_s, timer_.now_s()), TracedFailure{f.cluster, f.node, f.category, f.repair_s});
  }
  if (!config_.enabled) {
    return;
  }
  latent_.start();
  for (std::size_t c = 0; c < clusters_.size(); ++c) {
    model::ClusterId cid{static_cast<std::uint16_t>(c)};
    for (std::uint32_t n = 0; n < clusters_[c].nodes; ++n) {
      draw_next_failure(cid, n);
    }
    for (std::uint32_t l = 0; config_.leaf_rate_per_switch_day > 0.0 && l < clusters_[c].nodes_of_leaf.size(); ++l) {
      draw_next_leaf_failure(cid, l);
    }
    std::uint32_t groups = (clusters_[c].nodes + config_.group.size - 1) / config_.group.size;
    for (std::uint32_t g = 0; config_.group.enabled() && g < groups; ++g) {
      draw_next_group_failure(cid, g);
    }
  }
}

void FailureProcess::draw_next_failure(model::ClusterId cluster, std::uint32_t node) {
  if (!config_.enabled) {
    return;
  }
  double rate = config_.node_rate_per_day() * node_factor(cluster, node) / model::SECONDS_PER_DAY;
  if (rate <= 0.0) {
    return;
  }
  std::uint32_t& generation = generation_[model::to_index(cluster)][node];
  ++generation;
  timer_.schedule(timer_.now_s() + time_to_failure_s(cluster, 1.0 / rate), NodeFailed{cluster, node, generation});
}

double FailureProcess::time_to_failure_s(model::ClusterId cluster, double mean_s) {
  const config::HazardConfig& hazard = config_.hazard;
  if (hazard.exponential()) {
    return rng_.of(cluster).exponential(mean_s);
  }
  // Weibull of the same mean: scale = mean / Gamma(1 + 1/k).
  return rng_.of(cluster).weibull(hazard.shape, mean_s / std::tgamma(1.0 + 1.0 / hazard.shape));
}

void FailureProcess::draw_next_leaf_failure(model::ClusterId cluster, std::uint32_t leaf) {
  double rate = config_.leaf_rate_per_switch_day / model::SECONDS_PER_DAY;
  timer_.schedule(timer_.now_s() + rng_.of(cluster).exponential(1.0 / rate), LeafFailed{cluster, leaf});
}

void FailureProcess::draw_next_group_failure(model::ClusterId cluster, std::uint32_t group) {
  constexpr double PER_THOUSAND = 1000.0;
  double rate = config_.group.rate_per_1000_group_days / PER_THOUSAND / model::SECONDS_PER_DAY;
  timer_.schedule(timer_.now_s() + rng_.of(cluster).exponential(1.0 / rate), GroupFailed{cluster, group});
}

void FailureProcess::on(const GroupFailed& event) {
  const config::GroupFailureConfig& g = config_.group;
  std::uint32_t first = event.group * g.size;
  std::uint32_t end = std::min(clusters_[model::to_index(event.cluster)].nodes, first + g.size);
  double repair = g.repair.sample(rng_.of(event.cluster));
  // With the failure clock off while jobs restart (failures.during_restart: false), a node whose job is
  // restarting is spared, as a single node's failure would be.
  std::vector<std::pair<std::uint32_t, metrics::Detection>> struck; // how each showed, before its jobs fail
  for (std::uint32_t n = first; n < end; ++n) {
    if (config_.during_restart || !hooks_.node_restarting(event.cluster, n)) {
      struck.emplace_back(n, detection_now(event.cluster, n, g.category_index));
    }
  }
  for (auto [n, how] : struck) {
    if (!nodes_.is_down(event.cluster, n)) {
      hooks_.fail_switch_jobs(event.cluster, n, g.category_index); // each job on the group fails once
    }
  }
  for (auto [n, how] : struck) {
    fail_node(event.cluster, n, g.category_index, how, repair, true);
  }
  draw_next_group_failure(event.cluster, event.group);
}

std::uint32_t FailureProcess::draw_category(model::ClusterId cluster) {
  // Proportional to the categories' rates.
  double pick = rng_.of(cluster).uniform() * config_.node_rate_per_day();
  std::uint32_t category = 0;
  for (; category + 1 < config_.categories.size(); ++category) {
    pick -= config_.categories[category].rate_per_node_day;
    if (pick < 0.0) {
      break;
    }
  }
  while (category > 0 && config_.categories[category].rate_per_node_day <= 0.0) {
    --category; // rounding fell through to a category that is never drawn (e.g. "slow")
  }
  return category;
}

void FailureProcess::on(const NodeFailed& event) {
  if (generation_[model::to_index(event.cluster)][event.node] != event.generation) {
    return; // drawn before the node's last failure: its process restarted at the repair
  }
  std::uint32_t category = draw_category(event.cluster);
  if (!config_.during_restart && hooks_.node_restarting(event.cluster, event.node)) {
    draw_next_failure(event.cluster, event.node); // its clock stands still while its job restarts (memoryless)
    return;
  }
  if (nodes_.is_down(event.cluster, event.node)) {
    // Down for another reason (its switch, a quarantine): the process goes on; a quarantine avoided this one.
    tally(event.cluster, event.node).avoided += tally(event.cluster, event.node).quarantined_since_s >= 0.0 ? 1 : 0;
    draw_next_failure(event.cluster, event.node);
    return;
  }
  if (latent_.latent_when_idle() && !hooks_.node_busy(event.cluster, event.node)) {
    latent_.strike(event.cluster, event.node, category); // its process waits for the repair after it is found
    return;
  }
  fail_node(event.cluster, event.node, category, detection_now(event.cluster, event.node, category));
}

void FailureProcess::on(const TracedFailure& event) {
  metrics::Detection how = event.found == TracedFailure::Found::NOW
                               ? detection_now(event.cluster, event.node, event.category)
                               : (event.found == TracedFailure::Found::BY_JOB ? metrics::Detection::JOB_START
                                                                              : metrics::Detection::HEALTH_CHECK);
  fail_node(event.cluster, event.node, event.category, how, event.repair_s);
}

metrics::Detection FailureProcess::detection_now(model::ClusterId cluster, std::uint32_t node,
                                                 std::uint32_t category) const {
  if (!hooks_.node_busy(cluster, node)) {
    return metrics::Detection::IDLE_NODE;
  }
  bool hang = category < config_.categories.size() && config_.categories[category].hang;
  return hang ? metrics::Detection::JOB_HANG : metrics::Detection::JOB_CRASH;
}

void FailureProcess::fail_node(model::ClusterId cluster, std::uint32_t node, std::uint32_t category,
                               metrics::Detection how, double repair_s, bool jobs_failed) {
  if (nodes_.is_down(cluster, node)) {
    NodeTally& held = tally(cluster, node);
    held.avoided += held.quarantined_since_s >= 0.0 ? 1 : 0;
    return; // already down (a traced failure of a node under repair or in quarantine)
  }
  if (category < detected_[model::to_index(cluster)].size()) {
    ++detected_[model::to_index(cluster)][category][static_cast<std::size_t>(how)];
  }
  // Fail the jobs first (cancelling their transfers), then power the node off.
  if (!jobs_failed) {
    hooks_.fail_node_jobs(cluster, node, category);
  }
  nodes_.down(cluster, node, model::OutOfService::REPAIR, config_.categories[category].name);
  NodeTally& t = tally(cluster, node);
  ++t.failures[category];
  t.fault_category = category;
  t.down_since_s = timer_.now_s();
  if (quarantine_.after_failures > 0) {
    t.recent_s.push_back(timer_.now_s());
  }
  double repair = repair_s >= 0.0 ? repair_s : repair_time_s(cluster, node, category);
  if (config_.isolated_until_operator) {
    repair += config_.operator_return.sample(rng_.of(cluster));
  }
  ++generation_[model::to_index(cluster)][node]; // its random failure process restarts after the repair
  timer_.schedule(timer_.now_s() + repair, NodeRepaired{cluster, node});
}

double FailureProcess::repair_time_s(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) {
  double repair = config_.categories[category].repair.sample(rng_.of(cluster));
  if (config_.repair.escalates() && rng_.of(cluster).uniform() < config_.repair.escalate_share) {
    ++tally(cluster, node).manual_repairs;
    nodes_.relabel(cluster, node, model::OutOfService::REPAIR, model::OutOfService::MANUAL_REPAIR);
    repair += config_.repair.manual.sample(rng_.of(cluster));
  }
  return repair;
}

bool FailureProcess::repair_fixes(model::ClusterId cluster) {
  return !config_.repair.can_fail() || rng_.of(cluster).uniform() < config_.repair.fix_share;
}

void FailureProcess::on(const NodeRepaired& event) {
  NodeTally& t = tally(event.cluster, event.node);
  if (event.quarantine_ends) {
    t.quarantine_s += timer_.now_s() - t.quarantined_since_s;
    t.quarantined_since_s = -1.0;
    hooks_.node_repaired(event.cluster, event.node);
    return;
  }
  t.down_s += timer_.now_s() - t.down_since_s;
  t.down_since_s = -1.0;
  ++t.repairs;
  bool fixed = repair_fixes(event.cluster);
  if (fixed) {
    draw_next_failure(event.cluster, event.node); // a failed node fails again only once back in service
  }
  if (reaches_quarantine(event.cluster, event.node)) {
    if (!fixed) {
      draw_next_failure(event.cluster, event.node); // the quarantine's burn-in fixes what the repair did not
    }
    begin_quarantine(event.cluster, event.node); // held down: its failures from now on meet no job
    return;
  }
  hooks_.node_repaired(event.cluster, event.node);
  if (!fixed) {
    // Back in service with its fault: latent until a job lands on it or a check finds it; its failure
    // process restarts at the repair after that.
    ++t.unfixed;
    latent_.strike(event.cluster, event.node, t.fault_category);
  }
}

FaultCounts FailureProcess::fault_counts(model::ClusterId cluster) const {
  FaultCounts counts = latent_.counts(cluster);
  for (const NodeTally& t : tally_[model::to_index(cluster)]) {
    counts.repairs += t.repairs;
    counts.manual_repairs += t.manual_repairs;
    counts.unfixed += t.unfixed;
  }
  counts.detected_by = detected_[model::to_index(cluster)];
  return counts;
}

bool FailureProcess::reaches_quarantine(model::ClusterId cluster, std::uint32_t node) {
  if (quarantine_.after_failures == 0) {
    return false;
  }
  std::deque<double>& recent = tally(cluster, node).recent_s;
  while (!recent.empty() && recent.front() < timer_.now_s() - quarantine_.window_s) {
    recent.pop_front();
  }
  return recent.size() >= quarantine_.after_failures;
}

void FailureProcess::begin_quarantine(model::ClusterId cluster, std::uint32_t node) {
  NodeTally& t = tally(cluster, node);
  ++t.quarantines;
  t.quarantined_since_s = timer_.now_s();
  t.recent_s.clear(); // released, it starts afresh
  nodes_.relabel(cluster, node, model::OutOfService::FAILED, model::OutOfService::QUARANTINE);
  timer_.schedule(timer_.now_s() + quarantine_.release_after_s, NodeRepaired{cluster, node, true});
}

std::vector<metrics::NodeRecord> FailureProcess::node_records(double now_s) const {
  std::vector<metrics::NodeRecord> out;
  for (std::size_t c = 0; c < tally_.size(); ++c) {
    model::ClusterId cid{static_cast<std::uint16_t>(c)};
    for (std::uint32_t n = 0; n < tally_[c].size(); ++n) {
      const NodeTally& t = tally_[c][n];
      double down = t.down_s + (t.down_since_s >= 0.0 ? now_s - t.down_since_s : 0.0);
      double held = t.quarantine_s + (t.quarantined_since_s >= 0.0 ? now_s - t.quarantined_since_s : 0.0);
      out.push_back(metrics::NodeRecord{static_cast<std::uint16_t>(c), n, node_factor(cid, n), t.failures, down,
                                        t.repairs, t.manual_repairs, t.unfixed, t.quarantines, held, t.avoided});
    }
  }
  return out;
}

void FailureProcess::on(const LeafFailed& event) {
  for (model::NodeId node : clusters_[model::to_index(event.cluster)].nodes_of_leaf.at(event.leaf)) {
    hooks_.fail_switch_jobs(event.cluster, model::to_index(node), switch_category());
    ++tally(event.cluster, model::to_index(node)).failures[switch_category()];
    nodes_.down(event.cluster, model::to_index(node), model::OutOfService::SWITCH, config::SWITCH_FAILURE_CATEGORY);
  }
  timer_.schedule(timer_.now_s() + config_.leaf_repair.sample(rng_.of(event.cluster)),
                  LeafRepaired{event.cluster, event.leaf});
}

void FailureProcess::on(const LeafRepaired& event) {
  for (model::NodeId node : clusters_[model::to_index(event.cluster)].nodes_of_leaf.at(event.leaf)) {
    nodes_.up(event.cluster, model::to_index(node), model::OutOfService::SWITCH, "switch repaired");
  }
  draw_next_leaf_failure(event.cluster, event.leaf);
}

} // namespace acme::core
