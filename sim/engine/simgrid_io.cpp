#include "sim/engine/simgrid_io.hpp"

#include <simgrid/s4u.hpp>

#include <cmath>

#include "sim/model/assert.hpp"

namespace acme::engine {
namespace sg4 = simgrid::s4u;

namespace {
SimgridIo* g_active = nullptr; // SimGrid's completion signal is global; one SimgridIo per process
} // namespace

SimgridIo::SimgridIo(Platform& platform, Completion on_done) : platform_(platform), on_done_(std::move(on_done)) {
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

core::TransferId SimgridIo::start(const core::TransferRequest& request) {
  sg4::Host* endpoint = platform_.storage_endpoint(request.cluster, request.node);
  sg4::Host* storage = platform_.storage_host(request.cluster);
  ACME_ASSERT(endpoint->is_on(), "transfers start from nodes that are up");
  sg4::CommPtr comm = request.direction == core::IoDirection::WRITE ? sg4::Comm::sendto_init(endpoint, storage)
                                                                    : sg4::Comm::sendto_init(storage, endpoint);
  comm->set_payload_size(static_cast<std::uint64_t>(request.bytes));
  if (std::isfinite(request.rate_cap_Bps)) {
    comm->set_rate(request.rate_cap_Bps);
  }
  core::TransferId id = next_id_++;
  by_activity_[comm.get()] = id;
  pending_.emplace(id, Pending{comm, request, sg4::Engine::get_clock()});
  comm->start();
  return id;
}

void SimgridIo::cancel(core::TransferId id) {
  auto it = pending_.find(id);
  if (it == pending_.end()) {
    return;
  }
  sg4::CommPtr comm = it->second.comm;
  pending_.erase(it);
  // SimGrid reports a cancelled comm twice (CANCELED now, FAILED later): keep it alive and mapped
  // until the last report so its address cannot be reused meanwhile.
  cancelled_[comm.get()] = comm;
  comm->cancel();
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
  Pending p = std::move(it->second);
  pending_.erase(it);
  graveyard_.push_back(p.comm); // never drop the last reference inside the completion callback
  bool ok = activity.get_state() == sg4::Activity::State::FINISHED;
  const core::TransferRequest& r = p.request;
  if (ok) {
    if (moved_.size() <= model::to_index(r.cluster)) {
      moved_.resize(model::to_index(r.cluster) + 1, std::vector<double>(2, 0.0));
    }
    moved_[model::to_index(r.cluster)][static_cast<std::size_t>(r.direction)] += r.bytes;
  }
  on_done_(core::TransferDone{id, r.owner, ok, sg4::Engine::get_clock() - p.start_s});
}

void SimgridIo::collect_garbage() {
  graveyard_.clear();
}

void SimgridIo::widen_nic(model::ClusterId cluster, model::NodeId node, std::uint32_t nodes) {
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
