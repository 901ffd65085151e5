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
// A NIC direction whose flows' demands sum to its bandwidth cannot bind them (a job's DP and PP caps split
// the NIC exactly); the slack covers the rounding of that split and of the running sums.
constexpr double PARK_SLACK = 1e-9;

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
    state.demand_up_Bps.resize(nodes, 0.0);
    state.demand_down_Bps.resize(nodes, 0.0);
    if (nodes > 0) {
      state.nic_Bps = platform.compute_nic(id, model::NodeId{0})->get_link_up()->get_bandwidth();
    }
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
  core::FlowId id = next_id_++;
  auto from = static_cast<std::uint32_t>(model::to_index(request.from));
  auto to = static_cast<std::uint32_t>(model::to_index(request.to));
  Flow flow;
  flow.demand_Bps = request.demand_Bps;
  flow.cluster = request.cluster;
  flow.from = from;
  flow.to = to;
  flow.from_leaf = platform_.leaf_of(request.cluster, request.from);
  flow.to_leaf = platform_.leaf_of(request.cluster, request.to);
  flow.pipeline = request.kind == core::FlowKind::PIPELINE;
  ClusterState& c = clusters_[model::to_index(request.cluster)];
  c.flows_at[from].push_back(id);
  c.flows_at[to].push_back(id);
  c.demand_up_Bps[from] += request.demand_Bps;
  c.demand_down_Bps[to] += request.demand_Bps;
  Flow& added = flows_.emplace(id, flow).first->second;
  if (may_park(c, from, to)) {
    added.achieved_Bps = request.demand_Bps; // what sharing gives it; the job already progresses at that rate
    added.read = true;
    return id;
  }
  materialize(added);
  materialize_at(request.cluster, from); // the flows already through these NICs may now be bound
  materialize_at(request.cluster, to);
  return id;
}

bool SimgridFabric::may_park(const ClusterState& c, std::uint32_t from, std::uint32_t to) const {
  double limit_Bps = c.nic_Bps * (1.0 + PARK_SLACK);
  bool transfers = c.storage_on_nic && (c.transfers_at[from] > 0 || c.transfers_at[to] > 0);
  return c.bypass && !transfers && c.demand_up_Bps[from] <= limit_Bps && c.demand_down_Bps[to] <= limit_Bps;
}

void SimgridFabric::materialize(Flow& flow) {
  model::NodeId from{flow.from};
  model::NodeId to{flow.to};
  sg4::Host* from_port = platform_.port_host(flow.cluster, from, flow.pipeline);
  sg4::Host* to_port = platform_.port_host(flow.cluster, to, flow.pipeline);
  flow.port = platform_.port_link(flow.cluster, from, flow.pipeline)->get_link_up();
  flow.port->set_bandwidth(flow.demand_Bps);
  flow.comm = sg4::Comm::sendto_init(from_port, to_port);
  flow.comm->set_payload_size(FLOW_BYTES);
  flow.comm->start();
  flow.read = false;
  ++live_flows_;
  mark_node(flow.cluster, flow.from);
  mark_node(flow.cluster, flow.to);
  touch();
}

void SimgridFabric::materialize_at(model::ClusterId cluster, std::uint32_t node) {
  for (core::FlowId id : clusters_[model::to_index(cluster)].flows_at[node]) {
    Flow& flow = flows_.at(id);
    if (!flow.comm) {
      materialize(flow);
    }
  }
}

void SimgridFabric::close(core::FlowId flow) {
  auto it = flows_.find(flow);
  ACME_ASSERT(it != flows_.end(), "closing an open flow");
  sg4::CommPtr comm = it->second.comm;
  unlink_flow(it->second, flow);
  flows_.erase(it);
  if (!comm) {
    return; // parked: nothing on SimGrid moves
  }
  --live_flows_;
  // SimGrid reports a cancelled comm twice (CANCELED now, FAILED later): keep it alive until the last.
  ending_[comm.get()] = comm;
  comm->cancel();
  touch();
}

double SimgridFabric::achieved_Bps(core::FlowId flow) const {
  auto it = flows_.find(flow);
  return it == flows_.end() ? 0.0 : it->second.achieved_Bps;
}

bool SimgridFabric::rate_known(core::FlowId flow) const {
  auto it = flows_.find(flow);
  return it != flows_.end() && !it->second.comm; // parked: at its demand; on SimGrid: known after the barrier
}

std::vector<core::FlowId> SimgridFabric::take_changed() {
  std::vector<core::FlowId> out;
  out.swap(changed_);
  return out;
}

void SimgridFabric::unlink_flow(const Flow& flow, core::FlowId id) {
  ClusterState& c = clusters_[model::to_index(flow.cluster)];
  c.demand_up_Bps[flow.from] -= flow.demand_Bps;
  c.demand_down_Bps[flow.to] -= flow.demand_Bps;
  for (std::uint32_t node : {flow.from, flow.to}) {
    std::erase(c.flows_at[node], id);
    if (flow.comm) {
      mark_node(flow.cluster, node);
    }
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
      if (delta > 0) {
        materialize_at(cluster, n); // a transfer shares the NIC: its flows go on SimGrid
      }
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
  if (live_flows_ == 0 && changed_.empty()) {
    return; // nothing to re-read: without flows on SimGrid, rates matter to no one
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
      const Flow& f = flows_.at(id);
      if (!f.comm) {
        continue; // parked: at its demand, and sharing nothing that binds
      }
      out.push_back(id);
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
        if (model::to_index(flow.cluster) == ci && flow.comm) {
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

std::vector<char> SimgridFabric::add_flow_loads(model::ClusterId cluster, core::FabricUsage& u) const {
  const ClusterState& c = clusters_[model::to_index(cluster)];
  std::size_t nodes = u.nic_up_Bps.size();
  // Under the fluid model the fabric knows every flow and storage transfer through a compute NIC: a NIC with
  // neither on SimGrid carries only its parked flows' demands. Without flows SimGrid knows every load.
  std::vector<char> on_simgrid(nodes, platform_.fluid() ? 0 : 1);
  for (std::uint32_t n = 0; n < nodes && platform_.fluid(); ++n) {
    on_simgrid[n] = c.storage_on_nic && c.transfers_at[n] > 0 ? 1 : 0;
  }
  bool bypass = platform_.flows_bypass_uplinks(cluster);
  for (const auto& [id, flow] : flows_) {
    if (flow.cluster != cluster) {
      continue;
    }
    if (flow.comm) {
      on_simgrid[flow.from] = 1;
      on_simgrid[flow.to] = 1;
    } else {
      u.nic_up_Bps[flow.from] += flow.achieved_Bps;
      u.nic_down_Bps[flow.to] += flow.achieved_Bps;
    }
    if (bypass && flow.from_leaf != flow.to_leaf) { // routes without uplinks: their load is added here
      u.uplink_up_Bps[flow.from_leaf] += flow.achieved_Bps;
      u.uplink_down_Bps[flow.to_leaf] += flow.achieved_Bps;
    }
  }
  return on_simgrid;
}

core::FabricUsage SimgridFabric::usage(model::ClusterId cluster) const {
  core::FabricUsage u;
  std::size_t nodes = platform_.node_count(cluster);
  std::size_t leaves = platform_.leaf_count(cluster);
  u.nic_up_Bps.assign(nodes, 0.0);
  u.nic_down_Bps.assign(nodes, 0.0);
  u.uplink_up_Bps.assign(leaves, 0.0);
  u.uplink_down_Bps.assign(leaves, 0.0);
  std::vector<char> on_simgrid = add_flow_loads(cluster, u);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    if (on_simgrid[n] != 0) {
      const sg4::SplitDuplexLink* nic = platform_.compute_nic(cluster, model::NodeId{n});
      u.nic_up_Bps[n] += nic->get_link_up()->get_usage();
      u.nic_down_Bps[n] += nic->get_link_down()->get_usage();
    }
  }
  if (nodes > 0) {
    u.nic_Bps = platform_.compute_nic(cluster, model::NodeId{static_cast<std::uint32_t>(nodes - 1)})
                    ->get_link_up()
                    ->get_bandwidth();
  }
  for (std::uint32_t leaf = 0; leaf < leaves; ++leaf) {
    const sg4::SplitDuplexLink* up = platform_.uplink(cluster, leaf);
    u.uplink_Bps.push_back(up->get_link_up()->get_bandwidth());
    u.uplink_up_Bps[leaf] += up->get_link_up()->get_usage();
    u.uplink_down_Bps[leaf] += up->get_link_down()->get_usage();
  }
  return u;
}

} // namespace acme::engine
