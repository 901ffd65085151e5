// The event loop's failure parts at the start of a run: node factors, the failure process with its
// trace, and fail-slow nodes.
#include "sim/core/event_loop.hpp"
#include "sim/core/failure_trace.hpp"
#include "sim/core/node_factors.hpp"

namespace acme::core {

void EventLoop::start_slow_nodes() {
  const config::FailureConfig& failures = config_.faults->failures;
  if (!failures.enabled || !failures.slow.enabled()) {
    return;
  }
  slow_ = std::make_unique<SlowNodes>(
      failures.slow, table_, queue_, slow_rng_,
      [this](model::JobId id, JobRuntime& job, double pace) { checkpoint_.set_node_pace(id, job, pace); },
      [this](model::ClusterId cluster, std::uint32_t node, double remaining_s) {
        failures_.evict_slow(cluster, node, remaining_s);
      });
  checkpoint_.attach_slow_nodes(slow_.get());
  slow_->start();
}

void EventLoop::start_failures() {
  std::vector<std::uint32_t> nodes;
  for (const auto& cluster : config_.clusters) {
    nodes.push_back(cluster.nodes);
  }
  model::Rng factor_rng(config_.seed, "engine/node_factor");
  failures_.set_node_factors(draw_node_factors(config_.faults->failures.node_factor, nodes, factor_rng));
  failures_.set_quarantine(config_.faults->recovery.quarantine);
  const std::string& path = config_.faults->failures.trace_path;
  std::vector<FailureTraceRow> trace =
      path.empty() ? std::vector<FailureTraceRow>{}
                   : load_failure_trace(config_.resolve_path(path), config_, workload_->epoch_unix_s());
  checkpoint_.set_traced_rates(traced_rates(trace, nodes));
  failures_.start(trace);
}

} // namespace acme::core
