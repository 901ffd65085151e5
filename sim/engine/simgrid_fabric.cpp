#include "sim/engine/simgrid_fabric.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cmath>

#include "sim/model/assert.hpp"

namespace acme::engine {
namespace sg4 = simgrid::s4u;

namespace {

SimgridFabric* g_active = nullptr; // SimGrid's completion signal is global; one fabric per process

constexpr std::uint64_t FLOW_BYTES = 10'000'000'000'000'000'000ULL; // 1e19 B: > 3 years at 100 GB/s
constexpr double CHANGE_TOLERANCE = 1e-9;                           // relative move of a rate that counts
constexpr double MIN_UPLINK_Bps = 1.0;                              // a leaf with every uplink down

} // namespace

SimgridFabric::SimgridFabric(Platform& platform, const config::Config& config, Post post)
    : platform_(platform)
    , post_(std::move(post)) {
  ACME_ASSERT(g_active == nullptr, "one SimgridFabric per process (SimGrid's engine is a singleton)");
  g_active = this;
  for (std::size_t c = 0; c < config.clusters.size(); ++c) {
    model::ClusterId id{static_cast<std::uint16_t>(c)};
    std::size_t leaves = platform.leaf_count(id);
    uplinks_per_leaf_.emplace_back(leaves, config.clusters[c].network.uplinks_per_leaf);
    std::vector<double> bw;
    for (std::uint32_t leaf = 0; leaf < leaves; ++leaf) {
      bw.push_back(platform.uplink(id, leaf)->get_link_up()->get_bandwidth());
    }
    uplink_bw_Bps_.push_back(std::move(bw));
    ClusterState state;
    std::size_t nodes = platform.node_count(id);
    state.bypass = platform.flows_bypass_uplinks(id);
    state.storage_on_nic =
        nodes > 0 && platform.storage_nic(id, model::NodeId{0}) == platform.compute_nic(id, model::NodeId{0});
    state.flows_at.resize(nodes);
    state.transfers_at.resize(nodes, 0);
    state.is_dirty.resize(nodes, 0);
    clusters_.push_back(std::move(state));
  }
  sg4::Activity::on_completion_cb([](const sg4::Activity& a) {
    if (g_active != nullptr) {
      g_active->on_activity_end(a);
    }
  });
}

SimgridFabric::~SimgridFabric() {
  g_active = nullptr;
}

core::FlowId SimgridFabric::open(const core::FlowRequest& request) {
  ACME_ASSERT(platform_.fluid(), "training flows need the fluid platform (flow ports)");
  bool pipeline = request.kind == core::FlowKind::PIPELINE;
  sg4::Host* from = platform_.port_host(request.cluster, request.from, pipeline);
  sg4::Host* to = platform_.port_host(request.cluster, request.to, pipeline);
  sg4::Link* port = platform_.port_link(request.cluster, request.from, pipeline)->get_link_up();
  port->set_bandwidth(request.demand_Bps);
  sg4::CommPtr comm = sg4::Comm::sendto_init(from, to);
  comm->set_payload_size(FLOW_BYTES);
  comm->start();
  core::FlowId id = next_id_++;
  auto from_node = static_cast<std::uint32_t>(model::to_index(request.from));
  auto to_node = static_cast<std::uint32_t>(model::to_index(request.to));
  flows_.emplace(id, Flow{comm, port, 0.0, false, request.cluster, from_node, to_node,
                          platform_.leaf_of(request.cluster, request.from),
                          platform_.leaf_of(request.cluster, request.to)});
  ClusterState& c = clusters_[model::to_index(request.cluster)];
  c.flows_at[from_node].push_back(id);
  c.flows_at[to_node].push_back(id);
  mark_node(request.cluster, from_node);
  mark_node(request.cluster, to_node);
  touch();
  return id;
}

void SimgridFabric::close(core::FlowId flow) {
  auto it = flows_.find(flow);
  ACME_ASSERT(it != flows_.end(), "closing an open flow");
  sg4::CommPtr comm = it->second.comm;
  unlink_flow(it->second, flow);
  flows_.erase(it);
  // SimGrid reports a cancelled comm twice (CANCELED now, FAILED later): keep it alive until the last.
  ending_[comm.get()] = comm;
  comm->cancel();
  touch();
}

double SimgridFabric::achieved_Bps(core::FlowId flow) const {
  auto it = flows_.find(flow);
  return it == flows_.end() ? 0.0 : it->second.achieved_Bps;
}

std::vector<core::FlowId> SimgridFabric::take_changed() {
  std::vector<core::FlowId> out;
  out.swap(changed_);
  return out;
}

void SimgridFabric::unlink_flow(const Flow& flow, core::FlowId id) {
  ClusterState& c = clusters_[model::to_index(flow.cluster)];
  for (std::uint32_t node : {flow.from, flow.to}) {
    std::erase(c.flows_at[node], id);
    mark_node(flow.cluster, node);
  }
}

void SimgridFabric::mark_node(model::ClusterId cluster, std::uint32_t node) {
  ClusterState& c = clusters_[model::to_index(cluster)];
  if (c.is_dirty[node] == 0) {
    c.is_dirty[node] = 1;
    c.dirty_nodes.push_back(node);
  }
}

void SimgridFabric::transfer_changed(model::ClusterId cluster, const std::vector<model::NodeId>& nodes, int delta) {
  ClusterState& c = clusters_[model::to_index(cluster)];
  if (c.storage_on_nic) {
    for (model::NodeId node : nodes) {
      auto n = static_cast<std::uint32_t>(model::to_index(node));
      std::uint32_t& count = c.transfers_at[n];
      ACME_ASSERT(delta >= 0 || count > 0, "a transfer ends on a node it started on");
      count = delta > 0 ? count + 1 : (delta < 0 ? count - 1 : count);
      if (count == 0) {
        c.transfer_nodes.erase(n);
      } else {
        c.transfer_nodes.insert(n);
      }
      mark_node(cluster, n);
    }
    c.storage_dirty = true;
  }
  if (delta != 0) {
    touch(); // a part that arrived is read at the next change: the transfer's end comes with its last part
  }
}

void SimgridFabric::touch() {
  ++version_;
  if (flows_.empty() && changed_.empty()) {
    return; // nothing to re-read: without flows, rates matter to no one
  }
  if (barrier_) {
    return; // the pending barrier re-reads; it starts another if this change came after its solve
  }
  barrier_version_ = version_;
  barrier_ = sg4::Exec::init();
  barrier_->set_flops_amount(0.0);
  barrier_->set_host(platform_.storage_host(model::ClusterId{0}));
  barrier_->start();
}

void SimgridFabric::on_activity_end(const sg4::Activity& activity) {
  if (auto e = ending_.find(&activity); e != ending_.end()) {
    if (activity.get_state() == sg4::Activity::State::FAILED) {
      graveyard_.push_back(e->second);
      ending_.erase(e);
    }
    return;
  }
  if (!barrier_ || &activity != barrier_.get()) {
    return;
  }
  graveyard_.push_back(barrier_); // never drop the last reference inside the completion callback
  barrier_ = nullptr;
  bool stale = version_ != barrier_version_;
  read_rates();
  if (!stale) { // otherwise the next barrier reads what changed since this one started
    for (ClusterState& c : clusters_) {
      for (std::uint32_t node : c.dirty_nodes) {
        c.is_dirty[node] = 0;
      }
      c.dirty_nodes.clear();
      c.all_dirty = false;
      c.storage_dirty = false;
    }
  }
  if (!changed_.empty()) {
    post_(core::FlowRatesChanged{});
  }
  if (stale) {
    touch();
  }
}

std::vector<core::FlowId> SimgridFabric::flows_to_read(const ClusterState& c) const {
  std::vector<char> seen(c.flows_at.size(), 0);
  std::vector<std::uint32_t> stack;
  auto reach = [&](std::uint32_t node) {
    if (seen[node] == 0) {
      seen[node] = 1;
      stack.push_back(node);
    }
  };
  bool storage_reached = false;
  auto reach_storage = [&] { // every transfer shares the storage system: their nodes' NICs may move
    if (!storage_reached && c.storage_on_nic) {
      storage_reached = true;
      std::for_each(c.transfer_nodes.begin(), c.transfer_nodes.end(), reach);
    }
  };
  std::for_each(c.dirty_nodes.begin(), c.dirty_nodes.end(), reach);
  if (c.storage_dirty) {
    reach_storage();
  }
  std::vector<core::FlowId> out;
  while (!stack.empty()) {
    std::uint32_t node = stack.back();
    stack.pop_back();
    if (c.transfers_at[node] > 0) {
      reach_storage();
    }
    for (core::FlowId id : c.flows_at[node]) {
      out.push_back(id);
      const Flow& f = flows_.at(id);
      reach(f.from);
      reach(f.to);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void SimgridFabric::read_rates() {
  std::vector<core::FlowId> ids;
  for (std::size_t ci = 0; ci < clusters_.size(); ++ci) {
    const ClusterState& c = clusters_[ci];
    if (!c.all_dirty && !c.storage_dirty && c.dirty_nodes.empty()) {
      continue; // nothing changed there
    }
    if (c.all_dirty || !c.bypass) {
      // Through the uplinks every flow of the cluster may have moved.
      for (const auto& [id, flow] : flows_) {
        if (model::to_index(flow.cluster) == ci) {
          ids.push_back(id);
        }
      }
    } else {
      std::vector<core::FlowId> some = flows_to_read(c);
      ids.insert(ids.end(), some.begin(), some.end());
    }
  }
  for (core::FlowId id : ids) {
    Flow& flow = flows_.at(id);
    double rate = flow.port->get_usage();
    if (!flow.read || std::abs(rate - flow.achieved_Bps) > CHANGE_TOLERANCE * std::max(rate, flow.achieved_Bps)) {
      changed_.push_back(id);
    }
    flow.achieved_Bps = rate;
    flow.read = true;
  }
  std::sort(changed_.begin(), changed_.end());
  changed_.erase(std::unique(changed_.begin(), changed_.end()), changed_.end());
}

void SimgridFabric::collect_garbage() {
  graveyard_.clear();
}

void SimgridFabric::set_uplinks_down(model::ClusterId cluster, std::uint32_t leaf, std::uint32_t down) {
  ACME_ASSERT(!platform_.flows_bypass_uplinks(cluster), "uplinks fail only where flows are routed through them");
  auto c = model::to_index(cluster);
  clusters_[c].all_dirty = true;
  std::uint32_t links = uplinks_per_leaf_[c].at(leaf);
  double bw = uplink_bw_Bps_[c].at(leaf) * (links - std::min(down, links)) / links;
  sg4::SplitDuplexLink* uplink = platform_.uplink(cluster, leaf);
  for (sg4::Link* direction : {uplink->get_link_up(), uplink->get_link_down()}) {
    direction->set_bandwidth(std::max(bw, MIN_UPLINK_Bps));
  }
  touch();
}

core::FabricUsage SimgridFabric::usage(model::ClusterId cluster) const {
  core::FabricUsage u;
  std::size_t nodes = platform_.node_count(cluster);
  const ClusterState& c = clusters_[model::to_index(cluster)];
  for (std::uint32_t n = 0; n < nodes; ++n) {
    const sg4::SplitDuplexLink* nic = platform_.compute_nic(cluster, model::NodeId{n});
    // Under the fluid model the fabric knows every flow and storage transfer through a compute NIC:
    // a NIC with none carries nothing.
    bool idle = platform_.fluid() && c.flows_at[n].empty() && (!c.storage_on_nic || c.transfers_at[n] == 0);
    u.nic_up_Bps.push_back(idle ? 0.0 : nic->get_link_up()->get_usage());
    u.nic_down_Bps.push_back(idle ? 0.0 : nic->get_link_down()->get_usage());
  }
  if (nodes > 0) {
    u.nic_Bps = platform_.compute_nic(cluster, model::NodeId{static_cast<std::uint32_t>(nodes - 1)})
                    ->get_link_up()
                    ->get_bandwidth();
  }
  for (std::uint32_t leaf = 0; leaf < platform_.leaf_count(cluster); ++leaf) {
    const sg4::SplitDuplexLink* up = platform_.uplink(cluster, leaf);
    u.uplink_Bps.push_back(up->get_link_up()->get_bandwidth());
    u.uplink_up_Bps.push_back(up->get_link_up()->get_usage());
    u.uplink_down_Bps.push_back(up->get_link_down()->get_usage());
  }
  if (platform_.flows_bypass_uplinks(cluster)) {
    for (const auto& [id, flow] : flows_) {
      if (flow.cluster == cluster && flow.from_leaf != flow.to_leaf) {
        u.uplink_up_Bps[flow.from_leaf] += flow.achieved_Bps;
        u.uplink_down_Bps[flow.to_leaf] += flow.achieved_Bps;
      }
    }
  }
  return u;
}

} // namespace acme::engine
