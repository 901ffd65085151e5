#include "policies/scheduling/availability_profile.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>

#include "policies/scheduling/node_tally.hpp"

namespace acme::policies {
namespace {
constexpr double NEVER = std::numeric_limits<double>::infinity();
constexpr std::size_t NO_CONFLICT = std::numeric_limits<std::size_t>::max();

/// A change of a node's use at one instant.
struct Change {
  double at_s = 0.0;
  std::uint32_t gpus = 0;
  bool operator<(const Change& other) const { return at_s < other.at_s; }
};

/// Sum of the changes at or before `t_s`, moving `next` over the sorted `changes`.
std::uint32_t sum_until(const std::vector<Change>& changes, std::size_t& next, double t_s) {
  std::uint32_t sum = 0;
  while (next < changes.size() && changes[next].at_s <= t_s) {
    sum += changes[next].gpus;
    ++next;
  }
  return sum;
}
} // namespace

void AvailabilityProfile::begin(const FreeResources& free, const RunningJobs& running, double now_s) {
  free_ = &free;
  running_ = &running;
  now_s_ = now_s;
  for (std::uint32_t n : touched_) {
    reserved_[n].clear();
  }
  touched_.clear();
  reserved_.resize(free.view().shape().nodes);
  reservation_count_ = 0;
  invalidate_all();
}

void AvailabilityProfile::advance(const FreeResources& free, double now_s) {
  free_ = &free;
  now_s_ = now_s;
  invalidate_all();
}

void AvailabilityProfile::invalidate_all() {
  plans_.resize(reserved_.size());
  for (auto& p : plans_) {
    p.valid = false;
  }
  seen_running_ = running_->size();
  seen_free_ = free_->free_gpus_total();
}

void AvailabilityProfile::sync() const {
  if (running_->size() == seen_running_ && free_->free_gpus_total() == seen_free_) {
    return;
  }
  seen_running_ = running_->size();
  seen_free_ = free_->free_gpus_total();
  for (std::uint32_t n = 0; n < plans_.size(); ++n) {
    NodePlan& p = plans_[n];
    if (p.valid && (p.free_key != free_->free_gpus(model::NodeId{n}) ||
                    p.shares_key != running_->on_node(model::NodeId{n}).size())) {
      p.valid = false;
    }
  }
}

std::uint32_t AvailabilityProfile::capacity(std::uint32_t n) const {
  return free_->view().gpus_of(model::NodeId{n});
}

const AvailabilityProfile::NodePlan& AvailabilityProfile::plan(std::uint32_t n) const {
  NodePlan& p = plans_[n];
  if (!p.valid) {
    p.free_key = free_->free_gpus(model::NodeId{n});
    p.shares_key = running_->on_node(model::NodeId{n}).size();
    build_plan(n, p);
    p.valid = true;
  }
  return p;
}

void AvailabilityProfile::build_plan(std::uint32_t n, NodePlan& p) const {
  p.by_start = reserved_[n];
  std::sort(p.by_start.begin(), p.by_start.end(),
            [](const Reservation& a, const Reservation& b) { return a.start_s < b.start_s; });
  build_steps(n, p);
}

void AvailabilityProfile::build_steps(std::uint32_t n, NodePlan& p) const {
  const std::uint32_t used_now = capacity(n) - p.free_key;
  std::vector<Change> releases;
  std::vector<Change> starts;
  std::vector<Change> ends;
  p.steps.assign(1, Step{now_s_, 0, true});
  p.idle_from_s = now_s_;
  std::uint32_t freed_total = 0;
  for (const auto& share : running_->on_node(model::NodeId{n})) {
    double end_s = running_->find(share.job)->est_end_s;
    releases.push_back({end_s, share.gpus});
    freed_total += share.gpus;
    p.idle_from_s = std::max(p.idle_from_s, end_s);
    p.steps.push_back({std::max(now_s_, end_s), 0, true});
  }
  p.stuck = used_now > freed_total ? used_now - freed_total : 0;
  for (const auto& r : p.by_start) {
    p.steps.push_back({std::max(now_s_, r.end_s), 0, true});
    if (r.start_s >= r.end_s) {
      continue; // never in use
    }
    starts.push_back({r.start_s, r.gpus});
    ends.push_back({r.end_s, r.gpus});
    if (r.start_s > now_s_) {
      p.steps.push_back({r.start_s, 0, false});
    }
  }
  std::sort(releases.begin(), releases.end());
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  std::sort(p.steps.begin(), p.steps.end(), [](const Step& a, const Step& b) { return a.at_s < b.at_s; });
  std::size_t kept = 0;
  std::size_t next_release = 0;
  std::size_t next_start = 0;
  std::size_t next_end = 0;
  std::uint32_t freed = 0;
  std::uint32_t reserved = 0;
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    if (kept > 0 && p.steps[kept - 1].at_s == p.steps[i].at_s) {
      p.steps[kept - 1].candidate = p.steps[kept - 1].candidate || p.steps[i].candidate;
      continue;
    }
    Step step = p.steps[i];
    freed += sum_until(releases, next_release, step.at_s);
    reserved += sum_until(starts, next_start, step.at_s);
    reserved -= sum_until(ends, next_end, step.at_s);
    step.use = (used_now > freed ? used_now - freed : 0) + reserved;
    p.steps[kept++] = step;
  }
  p.steps.resize(kept);
  index_fits(n, p);
}

void AvailabilityProfile::index_fits(std::uint32_t n, NodePlan& p) const {
  const std::uint32_t cap = capacity(n);
  p.first_fit.assign(std::size_t{cap} + 1, static_cast<std::uint32_t>(p.steps.size()));
  std::uint32_t most_room = 0; // the most GPUs any step so far leaves free, plus one (0: none yet)
  for (std::size_t i = 0; i < p.steps.size() && most_room <= cap; ++i) {
    std::uint32_t room = p.steps[i].use < cap ? cap - p.steps[i].use : 0;
    for (std::uint32_t g = most_room; g <= room; ++g) {
      p.first_fit[g] = static_cast<std::uint32_t>(i);
    }
    most_room = std::max(most_room, room + 1);
  }
}

std::size_t AvailabilityProfile::first_conflict(std::uint32_t n, const NodePlan& p, std::size_t first,
                                                double duration_s, std::uint32_t gpus) const {
  // Use rises only where a reservation begins, and every such instant is a step: the window's peak
  // is at one of its steps.
  const std::uint32_t cap = capacity(n);
  const double end_s = p.steps[first].at_s + duration_s;
  for (std::size_t i = first; i < p.steps.size() && (i == first || p.steps[i].at_s < end_s); ++i) {
    if (p.steps[i].use + gpus > cap) {
      return i;
    }
  }
  return NO_CONFLICT;
}

bool AvailabilityProfile::fits_from(std::uint32_t n, const NodePlan& p, std::size_t first, double duration_s,
                                    std::uint32_t gpus) const {
  return gpus <= capacity(n) && first_conflict(n, p, first, duration_s, gpus) == NO_CONFLICT;
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::earliest(const model::JobSpec& job,
                                                                       double duration_s) const {
  sync();
  if (job.gpus <= free_->view().shape().gpus_per_node) {
    return earliest_on_one_node(job.gpus, duration_s);
  }
  return earliest_on_idle_nodes(job.gpus, duration_s);
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::earliest_on_one_node(std::uint32_t gpus,
                                                                                   double duration_s) const {
  const auto& view = free_->view();
  double best_s = NEVER;
  std::uint32_t best_node = 0;
  for (std::uint32_t n = 0; n < view.shape().nodes && best_s > now_s_; ++n) {
    if (!view.is_up(model::NodeId{n})) {
      continue;
    }
    const NodePlan& p = plan(n);
    const std::uint32_t cap = capacity(n);
    if (p.stuck + gpus > cap || gpus > cap) {
      continue; // no start can fit
    }
    // No start before the first step with room fits. A start before a conflicting step whose window
    // holds that step conflicts too: every candidate up to the conflict is ruled out at once, so the
    // node costs at most one walk over its steps.
    for (std::size_t i = p.first_fit[gpus]; i < p.steps.size(); ++i) {
      if (!p.steps[i].candidate) {
        continue;
      }
      if (p.steps[i].at_s >= best_s) {
        break;
      }
      std::size_t conflict = first_conflict(n, p, i, duration_s, gpus);
      if (conflict == NO_CONFLICT) {
        best_s = p.steps[i].at_s;
        best_node = n;
        break;
      }
      i = conflict;
    }
  }
  if (best_s == NEVER) {
    return std::nullopt;
  }
  return Slot{best_s, {model::NodeShare{model::NodeId{best_node}, gpus}}};
}

void AvailabilityProfile::idle_windows(std::uint32_t n, double duration_s, std::vector<Window>& out) const {
  const NodePlan& p = plan(n);
  if (p.stuck > 0 || capacity(n) == 0) {
    return; // GPUs in use that no known job will give back
  }
  double from = p.idle_from_s;
  for (const auto& r : p.by_start) {
    if (r.end_s <= from) {
      continue;
    }
    if (r.start_s - duration_s >= from) {
      out.push_back({from, r.start_s - duration_s, n});
    }
    from = std::max(from, r.end_s);
  }
  out.push_back({from, NEVER, n});
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::earliest_on_idle_nodes(std::uint32_t gpus,
                                                                                     double duration_s) const {
  const auto& view = free_->view();
  windows_.clear();
  for (std::uint32_t n = 0; n < view.shape().nodes; ++n) {
    if (view.is_up(model::NodeId{n})) {
      idle_windows(n, duration_s, windows_);
    }
  }
  double start_s = earliest_cover(windows_, gpus);
  if (start_s == NEVER) {
    return std::nullopt;
  }
  std::vector<std::uint32_t> nodes;
  for (const auto& w : windows_) {
    if (w.from_s <= start_s && start_s <= w.to_s && (nodes.empty() || nodes.back() != w.node)) {
      nodes.push_back(w.node);
    }
  }
  std::stable_sort(nodes.begin(), nodes.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return capacity(a) > capacity(b); });
  Slot slot{start_s, {}};
  std::uint64_t held = 0;
  for (std::uint32_t n : nodes) {
    if (held >= gpus) {
      break;
    }
    slot.placement.push_back({model::NodeId{n}, capacity(n)});
    held += capacity(n);
  }
  return slot;
}

double AvailabilityProfile::cover_bound(const std::vector<Window>& windows, std::uint32_t gpus) const {
  // k last windows with the smallest openings hold at least k x the least capacity among them.
  last_opens_.clear();
  std::uint32_t least_capacity = std::numeric_limits<std::uint32_t>::max();
  for (const auto& w : windows) {
    if (w.to_s == NEVER) {
      last_opens_.push_back(w.from_s);
      least_capacity = std::min(least_capacity, capacity(w.node));
    }
  }
  std::uint64_t k = (std::uint64_t{gpus} + least_capacity - 1) / least_capacity;
  if (last_opens_.empty() || k > last_opens_.size()) {
    return NEVER;
  }
  auto kth = last_opens_.begin() + static_cast<std::ptrdiff_t>(std::max<std::uint64_t>(k, 1) - 1);
  std::nth_element(last_opens_.begin(), kth, last_opens_.end());
  return *kth;
}

double AvailabilityProfile::earliest_cover(const std::vector<Window>& windows, std::uint32_t gpus) const {
  // (time, kind << 32 | node) sorts as (time, kind, node): at one instant, windows open before others close
  constexpr std::uint64_t CLOSES = std::uint64_t{1} << 32;
  constexpr std::uint64_t NODE_MASK = CLOSES - 1;
  // The sweep ends by the instant the last windows of some nodes hold `gpus` between them (they never
  // close): events after it cannot change the answer, and most of a long plan's events lie after it.
  const double bound_s = cover_bound(windows, gpus);
  events_.clear();
  for (const auto& w : windows) {
    if (w.from_s <= bound_s) {
      events_.emplace_back(w.from_s, w.node);
    }
    if (w.to_s < bound_s) { // a window closing at the bound closes after the bound's openings
      events_.emplace_back(w.to_s, CLOSES | w.node);
    }
  }
  // A min-heap yields the events in sorted order; the sweep usually stops long before the last one.
  std::make_heap(events_.begin(), events_.end(), std::greater<>{});
  std::uint64_t open_gpus = 0;
  for (auto last = events_.end(); last != events_.begin(); --last) {
    std::pop_heap(events_.begin(), last, std::greater<>{});
    const auto& [t, key] = *(last - 1);
    auto n = static_cast<std::uint32_t>(key & NODE_MASK);
    if ((key & CLOSES) != 0) {
      open_gpus -= capacity(n);
      continue;
    }
    open_gpus += capacity(n);
    if (open_gpus >= gpus) {
      return t;
    }
  }
  return NEVER;
}

bool AvailabilityProfile::fits_now(const model::Placement& placement, double duration_s) const {
  sync();
  for (const auto& share : placement) {
    std::uint32_t n = model::to_index(share.node);
    // A share of an already shared GPU takes no free GPU; one opening a GPU takes one.
    std::uint32_t gpus = share.milli > 0 ? std::min(planned_gpus(share), free_->free_gpus(share.node)) : share.gpus;
    if (!fits_from(n, plan(n), 0, duration_s, gpus)) {
      return false;
    }
  }
  return true;
}

void AvailabilityProfile::reserve(const Slot& slot, double duration_s) {
  for (const auto& share : slot.placement) {
    std::uint32_t n = model::to_index(share.node);
    if (reserved_[n].empty()) {
      touched_.push_back(n);
    }
    Reservation r{slot.start_s, slot.start_s + duration_s, planned_gpus(share)};
    reserved_[n].push_back(r);
    if (plans_[n].valid) {
      add_to_plan(n, plans_[n], r); // a stale plan is rebuilt from reserved_ at its next use (sync)
    }
    ++reservation_count_;
  }
}

std::size_t AvailabilityProfile::step_at(NodePlan& p, double at_s, bool candidate) const {
  auto it = std::lower_bound(p.steps.begin(), p.steps.end(), at_s,
                             [](const Step& step, double t_s) { return step.at_s < t_s; });
  if (it != p.steps.end() && it->at_s == at_s) {
    it->candidate = it->candidate || candidate;
    return static_cast<std::size_t>(it - p.steps.begin());
  }
  // The use is constant between steps: a new step takes the use of the one before it (steps[0] is now).
  std::uint32_t use = std::prev(it)->use;
  it = p.steps.insert(it, Step{at_s, use, candidate});
  return static_cast<std::size_t>(it - p.steps.begin());
}

void AvailabilityProfile::add_to_plan(std::uint32_t n, NodePlan& p, const Reservation& r) const {
  // The same steps and uses build_plan would derive with `r` among the reservations, in O(steps).
  p.by_start.insert(std::upper_bound(p.by_start.begin(), p.by_start.end(), r.start_s,
                                     [](double t_s, const Reservation& other) { return t_s < other.start_s; }),
                    r);
  step_at(p, std::max(now_s_, r.end_s), true);
  if (r.start_s < r.end_s) {
    std::size_t i = r.start_s > now_s_ ? step_at(p, r.start_s, false) : 0;
    for (; i < p.steps.size() && p.steps[i].at_s < r.end_s; ++i) {
      p.steps[i].use += r.gpus;
    }
  }
  index_fits(n, p);
}

} // namespace acme::policies
