#pragma once

#include "sim/config/config.hpp"
#include "sim/config/node.hpp"

namespace acme::config {

/// kind: hpc. Nodes and processors per node from the config, else from the SWF header of nodes_from.
void parse_hpc_nodes(const Node& node, ClusterConfig& c);
/// kind: gpu. Nodes and GPUs per node from the config, else one node per row of the node list nodes_from.
void parse_gpu_nodes(const Node& node, ClusterConfig& c);

} // namespace acme::config
