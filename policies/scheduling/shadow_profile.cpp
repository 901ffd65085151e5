#include "acme/policies/scheduling/shadow_profile.hpp"

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
  NodeTally before = at_shadow_;
  at_shadow_.take(placement);
  if (at_shadow_.fits_gpus(head_gpus_)) {
    return true;
  }
  at_shadow_ = std::move(before);
  return false;
}

} // namespace acme::policies
