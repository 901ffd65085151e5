#pragma once

#include <simgrid/forward.h>

#include <functional>
#include <unordered_map>
#include <vector>

#include "sim/core/io_service.hpp"
#include "sim/engine/platform.hpp"

namespace acme::engine {

/// The I/O service over SimGrid: each transfer is one communication between a node's storage
/// endpoint and its cluster's storage system, limited by NIC, fabric and storage together. Under the
/// fluid network model (`striped`), a multi-node job's transfer is one communication per node, each
/// moving an equal part through that node's own NIC (where its training flows are), and it ends
/// with the last part; otherwise it leaves from the job's first node, whose NIC widen_nic widens.
class SimgridIo final : public core::IoService {
public:
  /// Runs in SimGrid's maestro when a transfer that was not cancelled ends.
  using Completion = std::function<void(const core::TransferDone& done)>;
  /// Runs when a transfer starts (+1) or ends or is cancelled (-1), with the nodes whose storage paths
  /// it takes (the fabric re-reads the rates of the flows it may have moved), and when one part of a
  /// striped transfer arrives before the others (0, its node).
  using Changed = std::function<void(model::ClusterId cluster, const std::vector<model::NodeId>& nodes, int delta)>;

  SimgridIo(Platform& platform, Completion on_done, bool striped = false, Changed on_change = {});
  bool stripes() const override { return striped_; }
  ~SimgridIo() override;
  SimgridIo(const SimgridIo&) = delete;
  SimgridIo& operator=(const SimgridIo&) = delete;

  core::TransferId start(const core::TransferRequest& request) override;
  void cancel(core::TransferId id) override;
  /// Only between transfers of the node.
  void widen_nic(model::ClusterId cluster, model::NodeId node, std::uint32_t nodes) override;
  void set_node_power(model::ClusterId cluster, model::NodeId node, bool on) override;
  /// Releases completed activities (called at the start of each instant, outside SimGrid callbacks).
  void collect_garbage();
  double bytes_moved(model::ClusterId cluster, core::IoDirection direction) const;

private:
  struct Pending {
    std::vector<simgrid::s4u::CommPtr> comms; ///< one, or one per node (striped)
    core::TransferRequest request;
    std::vector<model::NodeId> nodes; ///< whose storage paths its parts take
    double start_s = 0.0;
    std::size_t left = 0; ///< parts still moving
  };
  simgrid::s4u::CommPtr make_comm(const core::TransferRequest& request, model::NodeId node, double bytes) const;
  void cancel_comm(const simgrid::s4u::CommPtr& comm);
  void on_activity_end(const simgrid::s4u::Activity& activity);
  void changed(const Pending& pending, int delta) const;

  Platform& platform_;
  Completion on_done_;
  bool striped_;
  Changed on_change_;
  core::TransferId next_id_ = 1;
  std::unordered_map<core::TransferId, Pending> pending_;
  std::unordered_map<const simgrid::s4u::Activity*, core::TransferId> by_activity_;
  std::unordered_map<const simgrid::s4u::Activity*, simgrid::s4u::CommPtr> cancelled_;
  std::vector<simgrid::s4u::CommPtr> graveyard_;
  std::vector<std::vector<double>> moved_; ///< per cluster: [write, read] bytes
};

} // namespace acme::engine
