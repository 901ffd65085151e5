#include "policies/scheduling/victim_planner.hpp"

namespace acme::policies {
namespace {

/// Drops victims (earliest chosen first) whose GPUs the job turns out not to need.
std::vector<model::JobId> prune(std::uint32_t gpus, NodeTally& tally, const RunningJobs& running,
                                const std::vector<model::JobId>& victims) {
  std::vector<model::JobId> kept;
  for (std::size_t i = 0; i + 1 < victims.size(); ++i) {
    NodeTally before = tally;
    tally.take(running.find(victims[i])->placement);
    if (tally.fits_gpus(gpus)) {
      continue;
    }
    tally = std::move(before);
    kept.push_back(victims[i]);
  }
  kept.push_back(victims.back());
  return kept;
}

} // namespace

std::vector<model::JobId> plan_victims(std::uint32_t gpus, const FreeResources& free, const RunningJobs& running,
                                       const std::vector<model::JobId>& candidates, std::uint64_t budget_milli) {
  NodeTally tally;
  tally.reset(free);
  std::vector<model::JobId> victims;
  std::uint64_t chosen_milli = 0;
  for (model::JobId id : candidates) {
    if (chosen_milli >= budget_milli) {
      break;
    }
    const RunningJob* job = running.find(id);
    const model::JobEntry* entry = free.view().find_job(id);
    if (job == nullptr || entry == nullptr || entry->phase != model::JobPhase::RUNNING) {
      continue;
    }
    tally.give(job->placement);
    victims.push_back(id);
    chosen_milli += job->milli;
    if (tally.fits_gpus(gpus)) {
      return prune(gpus, tally, running, victims);
    }
  }
  return {};
}

} // namespace acme::policies
