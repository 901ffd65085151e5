#include "sim/engine/io_service.hpp"

#include <simgrid/s4u.hpp>

#include "sim/model/assert.hpp"

namespace acme::engine {
namespace sg4 = simgrid::s4u;

namespace {
IoService* g_active = nullptr; // SimGrid's completion signal is global; one IoService per process
} // namespace

IoService::IoService(Platform& platform) : platform_(platform) {
  ACME_ASSERT(g_active == nullptr, "one IoService per process (SimGrid's engine is a singleton)");
  g_active = this;
  sg4::Activity::on_completion_cb([](const sg4::Activity& a) {
    if (g_active != nullptr) {
      g_active->on_activity_end(a);
    }
  });
}

IoService::~IoService() {
  g_active = nullptr;
}

TransferId IoService::start(model::ClusterId cluster, model::NodeId node, double bytes, IoDirection direction,
                            Callback done) {
  sg4::Host* endpoint = platform_.storage_endpoint(cluster, node);
  sg4::Host* storage = platform_.storage_host(cluster);
  ACME_ASSERT(endpoint->is_on(), "transfers start from nodes that are up");
  sg4::CommPtr comm = direction == IoDirection::WRITE ? sg4::Comm::sendto_init(endpoint, storage)
                                                      : sg4::Comm::sendto_init(storage, endpoint);
  comm->set_payload_size(static_cast<std::uint64_t>(bytes));
  TransferId id = next_id_++;
  by_activity_[comm.get()] = id;
  pending_.emplace(id, Pending{comm, std::move(done), cluster, direction, bytes, sg4::Engine::get_clock()});
  comm->start();
  return id;
}

void IoService::cancel(TransferId id) {
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

void IoService::on_activity_end(const sg4::Activity& activity) {
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
  TransferId id = mapped->second;
  by_activity_.erase(mapped);
  auto it = pending_.find(id);
  ACME_ASSERT(it != pending_.end(), "a mapped transfer is pending");
  Pending p = std::move(it->second);
  pending_.erase(it);
  graveyard_.push_back(p.comm); // never drop the last reference inside the completion callback
  bool ok = activity.get_state() == sg4::Activity::State::FINISHED;
  if (ok) {
    if (moved_.size() <= model::to_index(p.cluster)) {
      moved_.resize(model::to_index(p.cluster) + 1, std::vector<double>(2, 0.0));
    }
    moved_[model::to_index(p.cluster)][static_cast<std::size_t>(p.direction)] += p.bytes;
  }
  p.done(id, ok, sg4::Engine::get_clock() - p.start_s);
}

void IoService::collect_garbage() {
  graveyard_.clear();
}

void IoService::widen_nic(model::ClusterId cluster, model::NodeId node, std::uint32_t nodes) {
  platform_.storage_nic(cluster, node)->set_bandwidth(platform_.storage_nic_bw_Bps(cluster, node) * nodes);
}

void IoService::set_node_power(model::ClusterId cluster, model::NodeId node, bool on) {
  for (sg4::Host* host : {platform_.node_host(cluster, node), platform_.storage_endpoint(cluster, node)}) {
    if (on && !host->is_on()) {
      host->turn_on();
    } else if (!on && host->is_on()) {
      host->turn_off();
    }
  }
}

double IoService::bytes_moved(model::ClusterId cluster, IoDirection direction) const {
  auto c = model::to_index(cluster);
  return c < moved_.size() ? moved_[c][static_cast<std::size_t>(direction)] : 0.0;
}

} // namespace acme::engine
