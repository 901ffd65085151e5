#include "policies/scheduling/fifo.hpp"

namespace acme::policies {

Step FifoScheduler::decide(const model::JobEntry& entry, PassKind, std::vector<model::Decision>& out) {
  if (entry.spec.gpus > free_.free_gpus_total()) {
    return Step::BLOCKED;
  }
  std::optional<model::Placement> where = placement().place(entry.spec, free_);
  if (!where) {
    return Step::BLOCKED;
  }
  start(entry, std::move(*where), out);
  return Step::STARTED;
}

ArrivalsRound FifoScheduler::on_arrivals(const model::ClusterView& cluster, const std::vector<QueueKey>& arrivals) {
  return arrivals_behind_head(cluster, arrivals) ? ArrivalsRound::SKIP : ArrivalsRound::FULL_PASS;
}

} // namespace acme::policies
