#pragma once

#include <memory>
#include <span>
#include <vector>

#include "policies/placement/placement_policy.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/event.hpp"

namespace acme::policies {

/// Decides which queued jobs start where. Called by the engine after every batch of events at one
/// simulated instant, with the events of its cluster in the order they happened. Must be
/// deterministic and must not block; may keep private state (its queues). The view reflects every
/// event in `events` (ended jobs have released their resources, submitted jobs are queued).
class Scheduler {
public:
  virtual ~Scheduler() = default;
  virtual std::vector<model::Decision> on_events(std::span<const model::Event> events,
                                                 const model::ClusterView& cluster) = 0;

  /// The placement policy this scheduler consults (set once by whoever builds the run).
  void set_placement(std::unique_ptr<PlacementPolicy> placement) { placement_ = std::move(placement); }

protected:
  PlacementPolicy& placement() { return *placement_; }

private:
  std::unique_ptr<PlacementPolicy> placement_;
};

} // namespace acme::policies
