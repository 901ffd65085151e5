#pragma once

#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/core/failure_trace.hpp"

namespace acme::core {

/// Reads a fault trace in the InfiniteHBD-Trace format (StepFun, SIGCOMM'25; see shared data/README.md): a
/// JSON list of {node_id (UUID), event_time (days from the first event), event_type (fault_start or
/// fault_end), fault_type {Level, Class, Desc}}. Onto the config's first cluster: the servers in the order
/// they first appear become nodes 0, 1, 2, ... (a trace with more servers than the cluster has nodes is an
/// error); event_time days become seconds since the run's start; each fault's repair is its own
/// fault_end - fault_start (a fault never ended stays down to the end). Categories (documented assumption,
/// docs/failures.md): a GPU fault whose Desc names ECC -> ecc, P2P bandwidth -> nvlink, other GPU faults ->
/// cuda; NIC and Parameter Plane Cable -> network; File System -> storage; other hardware (power supply,
/// fan, motherboard, CPU, RAID or riser card) -> node; Software Failure -> "software" and Other Failure ->
/// "other", which the config must declare (`failures.categories: {software: {new: true}, other: {new:
/// true}}`). Errors name the file, the event's line and the key.
std::vector<FailureTraceRow> load_hbd_fault_trace(const std::string& path, const config::Config& config);

} // namespace acme::core
