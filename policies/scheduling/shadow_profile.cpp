#include "policies/scheduling/shadow_profile.hpp"

#include <algorithm>

namespace acme::policies {

void ShadowProfile::compute(std::uint32_t head_gpus, const FreeResources& free, const RunningJobs& running,
                            double now_s) {
  head_gpus_ = head_gpus;
  shadow_s_ = NEVER;
  at_shadow_.reset(free);
  if (at_shadow_.fits_gpus(head_gpus)) {
    shadow_s_ = now_s;
    return;
  }
  const auto& ends = running.by_end();
  for (auto it = ends.begin(); it != ends.end(); ++it) {
    at_shadow_.give(running.find(it->second)->placement);
    auto next = std::next(it);
    bool same_instant_follows = next != ends.end() && next->first == it->first;
    if (!same_instant_follows && at_shadow_.fits_gpus(head_gpus)) {
      shadow_s_ = it->first;
      return;
    }
  }
}

bool ShadowProfile::admit(const model::Placement& placement, double end_s) {
  if (!has_reservation() || end_s <= shadow_s_) {
    return true;
  }
  taken_.clear();
  for (const auto& share : placement) {
    // A share of an already shared GPU takes a free GPU only where one is left.
    std::uint32_t gpus = share.milli > 0 ? std::min(at_shadow_.free_gpus(share.node), 1U) : share.gpus;
    at_shadow_.take(share.node, gpus);
    taken_.push_back(gpus);
  }
  if (at_shadow_.fits_gpus(head_gpus_)) {
    return true;
  }
  for (std::size_t i = 0; i < placement.size(); ++i) {
    at_shadow_.give(placement[i].node, taken_[i]);
  }
  return false;
}

} // namespace acme::policies
