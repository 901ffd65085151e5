#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "sim/core/engine_event.hpp"
#include "sim/model/ids.hpp"

namespace acme::core {

enum class IoDirection : std::uint8_t { WRITE, READ };

/// One storage transfer of a job (checkpoint write, restore, model load, dataset read).
struct TransferRequest {
  model::ClusterId cluster{};
  model::NodeId node{}; ///< the node whose storage path it takes
  double bytes = 0.0;
  IoDirection direction = IoDirection::WRITE;
  model::JobId owner{}; ///< echoed in its TransferDone
  double rate_cap_Bps = std::numeric_limits<double>::infinity();
  /// Every node of a multi-node job, `node` first: an I/O service that stripes (the fluid network
  /// model's) moves an equal part through each node's own path instead of widening `node`'s NIC.
  std::vector<model::NodeId> stripe_nodes;
};

/// Contended storage transfers, as the engine's parts see them. One transfer per job and purpose
/// (DESIGN §4). A transfer that ends is reported back as a TransferDone event at its end time.
class IoService {
public:
  virtual ~IoService() = default;
  /// Starts a transfer from (write) or to (read) the storage system; its id is never 0.
  virtual TransferId start(const TransferRequest& request) = 0;
  /// Whether a multi-node job's transfer moves through each of its nodes (it reads stripe_nodes); when
  /// false, stripe_nodes is ignored and callers leave it empty.
  virtual bool stripes() const = 0;
  /// Drops a transfer: no TransferDone is queued for it from now on.
  virtual void cancel(TransferId id) = 0;
  /// Widens (nodes > 1) or restores (nodes == 1) a node's storage NIC to `nodes` times its bandwidth:
  /// a multi-node job's transfers leave from its first node at the job's aggregate NIC bandwidth.
  virtual void widen_nic(model::ClusterId cluster, model::NodeId node, std::uint32_t nodes) = 0;
  /// Turns a node off or on: transfers touching it fail at once.
  virtual void set_node_power(model::ClusterId cluster, model::NodeId node, bool on) = 0;
};

} // namespace acme::core
