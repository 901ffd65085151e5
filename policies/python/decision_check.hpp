#pragma once

#include <string>
#include <unordered_set>

#include "policies/placement/placement_policy.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/decision.hpp"

namespace acme::policies::python {

/// Checks decisions one by one, in order, as the engine would apply them after one scheduler call:
/// a StartJob or RejectJob names a queued job, a PreemptJob a running one, no job gets two decisions,
/// and a start's placement covers what its job asks for (whole GPUs with no share to spare, or one
/// share of a GPU) on free GPUs of up nodes, the GPUs of the starts accepted before it counting as taken. Policies
/// written outside C++ go through it before anything reaches the engine (whose own checks are assertions, not
/// messages).
class DecisionCheck {
public:
  /// Starts a round over `view` (forgets the decisions of the previous round).
  void begin_round(const model::ClusterView& view);
  /// "" when `decision` can be applied after those accepted so far in the round (it then counts as
  /// applied: a start's GPUs are taken); otherwise what is wrong, as "what; expected ..." text.
  std::string accept(const model::Decision& decision);
  /// What is still free in this round (the view less the accepted starts).
  const FreeResources& free() const { return free_; }

private:
  std::string accept_start(const model::StartJob& start);
  std::string phase_error(model::JobId job, model::JobPhase wanted, const char* decision) const;

  FreeResources free_;
  std::unordered_set<model::JobId> decided_;
};

/// What is wrong with running `job` on `placement` given the resources `free` ("" when it fits): a
/// GPU job covers its GPUs (whole GPUs on distinct up nodes with no share to spare, or one share of a GPU for a
/// fractional job), a CPU job has an empty placement and enough free cores.
std::string check_placement(const model::JobSpec& job, const model::Placement& placement, const FreeResources& free);

/// "node 3: 8 GPUs" style text of a placement, for messages.
std::string describe(const model::Placement& placement);

} // namespace acme::policies::python
