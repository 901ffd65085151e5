#include "sim/engine/simgrid_io.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cmath>

#include "sim/model/assert.hpp"

namespace acme::engine {
namespace sg4 = simgrid::s4u;

namespace {
SimgridIo* g_active = nullptr; // SimGrid's completion signal is global; one SimgridIo per process
} // namespace

SimgridIo::SimgridIo(Platform& platform, Completion on_done, bool striped, Changed on_change)
    : platform_(platform)
    , on_done_(std::move(on_done))
    , striped_(striped)
    , on_change_(std::move(on_change)) {
  ACME_ASSERT(g_active == nullptr, "one SimgridIo per process (SimGrid's engine is a singleton)");
  g_active = this;
  sg4::Activity::on_completion_cb([](const sg4::Activity& a) {
    if (g_active != nullptr) {
      g_active->on_activity_end(a);
    }
  });
}

SimgridIo::~SimgridIo() {
  g_active = nullptr;
}

sg4::CommPtr SimgridIo::make_comm(const core::TransferRequest& request, model::NodeId node, double bytes) const {
  sg4::Host* endpoint = platform_.storage_endpoint(request.cluster, node);
  sg4::Host* storage = platform_.storage_host(request.cluster);
  ACME_ASSERT(endpoint->is_on(), "transfers start from nodes that are up");
  sg4::CommPtr comm = request.direction == core::IoDirection::WRITE ? sg4::Comm::sendto_init(endpoint, storage)
                                                                    : sg4::Comm::sendto_init(storage, endpoint);
  comm->set_payload_size(static_cast<std::uint64_t>(bytes));
  if (std::isfinite(request.rate_cap_Bps)) {
    comm->set_rate(request.rate_cap_Bps);
  }
  return comm;
}

core::TransferId SimgridIo::start(const core::TransferRequest& request) {
  core::TransferId id = next_id_++;
  Pending p{{}, request, {}, sg4::Engine::get_clock(), 0};
  if (striped_ && request.stripe_nodes.size() > 1) {
    double part = request.bytes / static_cast<double>(request.stripe_nodes.size());
    for (model::NodeId node : request.stripe_nodes) {
      p.comms.push_back(make_comm(request, node, part));
    }
    p.nodes = request.stripe_nodes;
  } else {
    p.comms.push_back(make_comm(request, request.node, request.bytes));
    p.nodes = {request.node};
  }
  p.left = p.comms.size();
  for (const auto& comm : p.comms) {
    by_activity_[comm.get()] = id;
  }
  auto& pending = pending_.emplace(id, std::move(p)).first->second;
  for (const auto& comm : pending.comms) {
    comm->start();
  }
  changed(pending, +1);
  return id;
}

void SimgridIo::cancel_comm(const sg4::CommPtr& comm) {
  // SimGrid reports a cancelled comm twice (CANCELED now, FAILED later): keep it alive and mapped
  // until the last report so its address cannot be reused meanwhile.
  cancelled_[comm.get()] = comm;
  comm->cancel();
}

void SimgridIo::cancel(core::TransferId id) {
  auto it = pending_.find(id);
  if (it == pending_.end()) {
    return;
  }
  Pending p = std::move(it->second);
  pending_.erase(it);
  for (const auto& comm : p.comms) {
    if (comm->get_state() == sg4::Activity::State::FINISHED) {
      graveyard_.push_back(comm); // a part that already arrived
    } else {
      cancel_comm(comm);
    }
  }
  changed(p, -1);
}

void SimgridIo::on_activity_end(const sg4::Activity& activity) {
  auto mapped = by_activity_.find(&activity);
  if (mapped == by_activity_.end()) {
    return;
  }
  if (auto c = cancelled_.find(&activity); c != cancelled_.end()) {
    if (activity.get_state() == sg4::Activity::State::FAILED) {
      graveyard_.push_back(c->second);
      cancelled_.erase(c);
      by_activity_.erase(mapped);
    }
    return;
  }
  core::TransferId id = mapped->second;
  by_activity_.erase(mapped);
  auto it = pending_.find(id);
  ACME_ASSERT(it != pending_.end(), "a mapped transfer is pending");
  Pending& p = it->second;
  bool ok = activity.get_state() == sg4::Activity::State::FINISHED;
  if (ok && --p.left > 0) {
    // Other parts still move; this one's node has its path back (the fabric re-reads it at its next read).
    auto part = std::find_if(p.comms.begin(), p.comms.end(), [&](const auto& c) { return c.get() == &activity; });
    if (on_change_ && part != p.comms.end()) {
      on_change_(p.request.cluster, {p.nodes[static_cast<std::size_t>(part - p.comms.begin())]}, 0);
    }
    return;
  }
  for (const auto& comm : p.comms) {
    graveyard_.push_back(comm); // never drop the last reference inside the completion callback
    if (!ok && comm.get() != &activity && comm->get_state() != sg4::Activity::State::FINISHED) {
      cancel_comm(comm); // a part failed with its node: the transfer fails, its other parts stop
    }
  }
  changed(p, -1);
  core::TransferRequest r = std::move(p.request);
  double start_s = p.start_s;
  pending_.erase(it);
  if (ok) {
    if (moved_.size() <= model::to_index(r.cluster)) {
      moved_.resize(model::to_index(r.cluster) + 1, std::vector<double>(2, 0.0));
    }
    moved_[model::to_index(r.cluster)][static_cast<std::size_t>(r.direction)] += r.bytes;
  }
  on_done_(core::TransferDone{id, r.owner, ok, sg4::Engine::get_clock() - start_s});
}

void SimgridIo::changed(const Pending& pending, int delta) const {
  if (on_change_) {
    on_change_(pending.request.cluster, pending.nodes, delta);
  }
}

void SimgridIo::collect_garbage() {
  graveyard_.clear();
}

void SimgridIo::widen_nic(model::ClusterId cluster, model::NodeId node, std::uint32_t nodes) {
  if (striped_) {
    return; // each node's part takes its own NIC
  }
  platform_.storage_nic(cluster, node)->set_bandwidth(platform_.storage_nic_bw_Bps(cluster, node) * nodes);
}

void SimgridIo::set_node_power(model::ClusterId cluster, model::NodeId node, bool on) {
  for (sg4::Host* host : {platform_.node_host(cluster, node), platform_.storage_endpoint(cluster, node)}) {
    if (on && !host->is_on()) {
      host->turn_on();
    } else if (!on && host->is_on()) {
      host->turn_off();
    }
  }
}

double SimgridIo::bytes_moved(model::ClusterId cluster, core::IoDirection direction) const {
  auto c = model::to_index(cluster);
  return c < moved_.size() ? moved_[c][static_cast<std::size_t>(direction)] : 0.0;
}

} // namespace acme::engine
