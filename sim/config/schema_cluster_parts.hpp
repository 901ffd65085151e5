#pragma once

#include "sim/config/config.hpp"
#include "sim/config/node.hpp"

namespace acme::config {

/// A cluster's `gpu:` section (GpuConfig); absent: an A100-SXM-80GB.
GpuConfig parse_gpu(const Node& node);
/// A cluster's `storage:` section (StorageConfig); the port defaults to the storage's own bandwidth.
StorageConfig parse_storage(const Node& node);

} // namespace acme::config
