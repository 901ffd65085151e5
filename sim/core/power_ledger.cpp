// The carried-node ledger of PowerMeter (power_meter.hpp): a job holding many nodes whole carries them, so a
// change of its draw is one update; its time at each draw is booked to a node when it leaves it.
#include <algorithm>
#include <iterator>

#include "sim/core/power_meter.hpp"
#include "sim/model/assert.hpp"

namespace acme::core {
namespace {

/// Jobs that hold at least this many nodes whole carry them (below, node-by-node keeping costs as little
/// and keeps small runs' figures exactly as they were).
constexpr std::size_t CARRY_MIN_NODES = 16;

bool is_whole(const model::NodeShare& share, std::uint32_t node_gpus) {
  return share.milli == 0 && share.gpus == node_gpus;
}

double gpus_held(const model::NodeShare& share) {
  return static_cast<double>(model::share_milli(share)) / model::MILLI_PER_GPU;
}

} // namespace

void PowerMeter::take_placement(ClusterMeter& c, JobPower& p, const std::vector<model::NodeShare>& placement,
                                double now_s) {
  p.held_W = 0.0;
  p.per_extra_W = 0.0;
  p.carried_gpus = 0.0;
  p.carried_wall_per_W = 0.0;
  std::size_t whole = 0;
  for (const auto& share : placement) {
    whole += is_whole(share, c.nodes[model::to_index(share.node)].gpus) ? 1 : 0;
  }
  bool carry = whole >= CARRY_MIN_NODES;
  ++stamp_;
  for (const auto& share : placement) {
    NodeMeter& n = c.nodes[model::to_index(share.node)];
    double g = gpus_held(share);
    p.held_W += (g * n.idle_W + g / n.gpus * c.base_idle_W) / c.efficiency;
    p.per_extra_W += g * (1.0 + n.slope) / c.efficiency;
    if (!carry || !is_whole(share, n.gpus)) {
      continue;
    }
    n.stamp = stamp_;
    p.carried_gpus += g;
    p.carried_wall_per_W += g * (1.0 + n.slope) / c.efficiency;
    if (!n.carried) {
      touch(c, n, now_s); // its own draw up to now; from now on it draws what the job draws
      n.carried = true;
      p.carried_by_class.resize(c.classes.size(), 0);
      ++p.carried_by_class[n.power_class];
      p.carried_nodes.push_back(model::to_index(share.node));
      if (!p.levels.empty()) { // joins a ledger already running: books only what comes after now
        joined_[model::to_index(p.id)].push_back({model::to_index(share.node), p.levels});
      }
    }
  }
  book_nodes_left(c, p, now_s);
  p.shared.clear();
  if (carry) { // the shares it does not carry, kept node by node (a job that carries none reads the view)
    std::copy_if(placement.begin(), placement.end(), std::back_inserter(p.shared), [&](const model::NodeShare& share) {
      return !is_whole(share, c.nodes[model::to_index(share.node)].gpus);
    });
  }
}

bool PowerMeter::swap_carried(ClusterMeter& c, JobPower& p, const std::vector<model::NodeSwap>& swaps, double now_s) {
  for (const auto& swap : swaps) {
    const NodeMeter& from = c.nodes[model::to_index(swap.from)];
    const NodeMeter& to = c.nodes[model::to_index(swap.to)];
    if (p.carried_nodes.empty() || !from.carried || to.carried || to.gpus != from.gpus) {
      return false;
    }
  }
  for (const auto& swap : swaps) {
    std::uint32_t from_index = model::to_index(swap.from);
    std::uint32_t to_index = model::to_index(swap.to);
    NodeMeter& from = c.nodes[from_index];
    NodeMeter& to = c.nodes[to_index];
    double g = from.gpus; // whole nodes: the share's GPUs, the idle base whole
    p.held_W += g * (to.idle_W - from.idle_W) / c.efficiency;
    p.per_extra_W += g * (to.slope - from.slope) / c.efficiency;
    p.carried_wall_per_W += g * (to.slope - from.slope) / c.efficiency;
    book_node(c, p, from_index, now_s);
    touch(c, to, now_s); // its own draw up to now; from now on it draws what the job draws
    to.carried = true;
    ++p.carried_by_class[to.power_class];
    auto slot = std::find(p.carried_nodes.begin(), p.carried_nodes.end(), from_index);
    ACME_ASSERT(slot != p.carried_nodes.end(), "a node carried whole is carried by the job that holds it");
    *slot = to_index; // in its place: placement order
    if (!p.levels.empty()) {
      joined_[model::to_index(p.id)].push_back({to_index, p.levels});
    }
  }
  return true;
}

void PowerMeter::book_nodes_left(ClusterMeter& c, JobPower& p, double now_s) {
  std::erase_if(p.carried_nodes, [&](std::uint32_t index) { // not stamped by the placement just taken
    if (c.nodes[index].stamp == stamp_) {
      return false;
    }
    book_node(c, p, index, now_s);
    return true;
  });
  if (p.carried_nodes.empty()) {
    p.levels.clear();
    joined_.erase(model::to_index(p.id));
  }
}

const std::vector<model::NodeShare>& PowerMeter::node_by_node_shares(const JobRuntime& job) const {
  const JobPower& p = job.power;
  return p.carried_nodes.empty() ? table_.clusters[model::to_index(job.cluster)].view.job(p.id).placement : p.shared;
}

void PowerMeter::book_node(ClusterMeter& c, JobPower& p, std::uint32_t index, double now_s) {
  NodeMeter& n = c.nodes[index];
  const std::vector<DrawLevel>* before = nullptr; // the ledger when it joined (none: from the start)
  auto found = joined_.find(model::to_index(p.id));
  if (found != joined_.end()) {
    for (const auto& [node, levels] : found->second) {
      before = node == index ? &levels : before;
    }
  }
  for (const DrawLevel& level : p.levels) {
    double seconds = level.seconds;
    for (std::size_t k = 0; before != nullptr && k < before->size(); ++k) {
      seconds -= (*before)[k].extra_W == level.extra_W ? (*before)[k].seconds : 0.0;
    }
    c.report.gpu_server_W.add(node_wall_at_W(c, n, n.gpus * level.extra_W), seconds);
    c.report.gpu_W.add(n.idle_W + level.extra_W, n.gpus * seconds);
  }
  if (before != nullptr) {
    std::erase_if(found->second, [&](const auto& joined) { return joined.first == index; });
  }
  --p.carried_by_class[n.power_class];
  n.carried = false;
  n.since_s = now_s;
}

void PowerMeter::book_class(ClusterMeter& c, const JobPower& p, const NodeMeter& n, double count) {
  for (const DrawLevel& level : p.levels) {
    c.report.gpu_server_W.add(node_wall_at_W(c, n, n.gpus * level.extra_W), count * level.seconds);
    c.report.gpu_W.add(n.idle_W + level.extra_W, count * n.gpus * level.seconds);
  }
}

void PowerMeter::book_carried(ClusterMeter& c, JobPower& p, double now_s) {
  auto found = joined_.find(model::to_index(p.id));
  if (found != joined_.end()) { // nodes that joined later: each books only what came after it joined
    std::vector<std::uint32_t> late;
    for (const auto& joined : found->second) {
      late.push_back(joined.first);
    }
    for (std::uint32_t index : late) {
      book_node(c, p, index, now_s);
    }
  }
  // The rest hold the whole ledger: booked class by class, so the cost does not grow with the nodes.
  for (std::size_t k = 0; k < p.carried_by_class.size(); ++k) {
    if (p.carried_by_class[k] > 0) {
      book_class(c, p, c.classes[k], p.carried_by_class[k]);
    }
  }
  for (std::uint32_t index : p.carried_nodes) {
    c.nodes[index].carried = false;
    c.nodes[index].since_s = now_s;
  }
  joined_.erase(model::to_index(p.id));
  p.carried_nodes.clear();
  p.carried_by_class.assign(p.carried_by_class.size(), 0);
  p.levels.clear();
  p.carried_gpus = 0.0;
  p.carried_wall_per_W = 0.0;
}

} // namespace acme::core
