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
  flows_.emplace(id, Flow{comm, port, 0.0, false, request.cluster, platform_.leaf_of(request.cluster, request.from),
                          platform_.leaf_of(request.cluster, request.to)});
  touch();
  return id;
}

void SimgridFabric::close(core::FlowId flow) {
  auto it = flows_.find(flow);
  ACME_ASSERT(it != flows_.end(), "closing an open flow");
  sg4::CommPtr comm = it->second.comm;
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
  if (!changed_.empty()) {
    post_(core::FlowRatesChanged{});
  }
  if (stale) {
    touch();
  }
}

void SimgridFabric::read_rates() {
  for (auto& [id, flow] : flows_) {
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
  for (std::uint32_t n = 0; n < nodes; ++n) {
    const sg4::SplitDuplexLink* nic = platform_.compute_nic(cluster, model::NodeId{n});
    u.nic_Bps = nic->get_link_up()->get_bandwidth();
    u.nic_up_Bps.push_back(nic->get_link_up()->get_usage());
    u.nic_down_Bps.push_back(nic->get_link_down()->get_usage());
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
