#pragma once

#include <simgrid/forward.h>

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "sim/engine/platform.hpp"
#include "sim/model/ids.hpp"

namespace acme::engine {

enum class IoDirection : std::uint8_t { WRITE, READ };
using TransferId = std::uint64_t;

/// Contended storage transfers (checkpoint writes, restores, model loads) as SimGrid communications
/// between a node's storage endpoint and its cluster's storage system. One transfer per job and
/// purpose (DESIGN §4): a multi-node job's transfer leaves from its first node, whose storage NIC is
/// widened to the job's aggregate NIC bandwidth while the job runs there (`widen_nic`).
class IoService {
public:
  /// Runs in SimGrid's maestro when a transfer ends: `ok` is false when it failed (a host went down).
  using Callback = std::function<void(TransferId id, bool ok, double duration_s)>;

  explicit IoService(Platform& platform);
  ~IoService();
  IoService(const IoService&) = delete;
  IoService& operator=(const IoService&) = delete;

  TransferId start(model::ClusterId cluster, model::NodeId node, double bytes, IoDirection direction, Callback done);
  /// Drops a transfer: its callback never runs.
  void cancel(TransferId id);
  /// Widens (nodes > 1) or restores (nodes == 1) a node's storage NIC. Only between transfers.
  void widen_nic(model::ClusterId cluster, model::NodeId node, std::uint32_t nodes);
  /// Turns a node's hosts off or on: transfers touching them fail at once.
  void set_node_power(model::ClusterId cluster, model::NodeId node, bool on);
  /// Releases completed activities (called at the start of each instant, outside SimGrid callbacks).
  void collect_garbage();

  std::size_t in_flight() const { return pending_.size(); }
  double bytes_moved(model::ClusterId cluster, IoDirection direction) const;

private:
  struct Pending {
    simgrid::s4u::CommPtr comm;
    Callback done;
    model::ClusterId cluster{};
    IoDirection direction = IoDirection::WRITE;
    double bytes = 0.0;
    double start_s = 0.0;
  };
  void on_activity_end(const simgrid::s4u::Activity& activity);

  Platform& platform_;
  TransferId next_id_ = 1;
  std::unordered_map<TransferId, Pending> pending_;
  std::unordered_map<const simgrid::s4u::Activity*, TransferId> by_activity_;
  std::unordered_map<const simgrid::s4u::Activity*, simgrid::s4u::CommPtr> cancelled_;
  std::vector<simgrid::s4u::CommPtr> graveyard_;
  std::vector<std::vector<double>> moved_; ///< per cluster: [write, read] bytes
};

} // namespace acme::engine
