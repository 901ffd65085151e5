#include "acme/policies/scheduling/availability_profile.hpp"

#include "acme/policies/scheduling/node_tally.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace acme::policies {
namespace {
constexpr double NEVER = std::numeric_limits<double>::infinity();
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
}

void AvailabilityProfile::advance(const FreeResources& free, double now_s) {
  free_ = &free;
  now_s_ = now_s;
}

std::uint32_t AvailabilityProfile::capacity(std::uint32_t n) const { return free_->view().gpus_of(model::NodeId{n}); }

std::uint32_t AvailabilityProfile::running_use(std::uint32_t n, double t_s) const {
  model::NodeId node{n};
  std::uint32_t used_now = capacity(n) - free_->free_gpus(node);
  std::uint32_t freed = 0;
  for (const auto& share : running_->on_node(node)) {
    if (running_->find(share.job)->est_end_s <= t_s) {
      freed += share.gpus;
    }
  }
  return used_now > freed ? used_now - freed : 0;
}

std::uint32_t AvailabilityProfile::reserved_use(std::uint32_t n, double t_s) const {
  std::uint32_t used = 0;
  for (const auto& r : reserved_[n]) {
    if (r.start_s <= t_s && t_s < r.end_s) {
      used += r.gpus;
    }
  }
  return used;
}

bool AvailabilityProfile::fits_window(std::uint32_t n, double start_s, double duration_s, std::uint32_t gpus) const {
  const std::uint32_t cap = capacity(n);
  auto room_at = [&](double t) { return running_use(n, t) + reserved_use(n, t) + gpus <= cap; };
  if (gpus > cap || !room_at(start_s)) {
    return false;
  }
  // Running use only falls over time: the window's peak is at its start or where a reservation begins.
  for (const auto& r : reserved_[n]) {
    if (r.start_s > start_s && r.start_s < start_s + duration_s && !room_at(r.start_s)) {
      return false;
    }
  }
  return true;
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::earliest(const model::JobSpec& job,
                                                                       double duration_s) const {
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
  std::vector<double> starts;
  for (std::uint32_t n = 0; n < view.shape().nodes && best_s > now_s_; ++n) {
    if (!view.is_up(model::NodeId{n}) || running_use(n, NEVER) + gpus > capacity(n)) {
      continue;
    }
    starts.assign(1, now_s_);
    for (const auto& share : running_->on_node(model::NodeId{n})) {
      starts.push_back(std::max(now_s_, running_->find(share.job)->est_end_s));
    }
    for (const auto& r : reserved_[n]) {
      starts.push_back(std::max(now_s_, r.end_s));
    }
    std::sort(starts.begin(), starts.end());
    for (double s : starts) {
      if (s >= best_s) {
        break;
      }
      if (fits_window(n, s, duration_s, gpus)) {
        best_s = s;
        best_node = n;
        break;
      }
    }
  }
  if (best_s == NEVER) {
    return std::nullopt;
  }
  return Slot{best_s, {model::NodeShare{model::NodeId{best_node}, gpus}}};
}

std::vector<std::pair<double, double>> AvailabilityProfile::idle_windows(std::uint32_t n, double duration_s) const {
  if (running_use(n, NEVER) > 0 || capacity(n) == 0) {
    return {}; // GPUs in use that no known job will give back
  }
  double idle_from = now_s_;
  for (const auto& share : running_->on_node(model::NodeId{n})) {
    idle_from = std::max(idle_from, running_->find(share.job)->est_end_s);
  }
  std::vector<Reservation> rs = reserved_[n];
  std::sort(rs.begin(), rs.end(), [](const Reservation& a, const Reservation& b) { return a.start_s < b.start_s; });
  std::vector<std::pair<double, double>> out;
  double from = idle_from;
  for (const auto& r : rs) {
    if (r.end_s <= from) {
      continue;
    }
    if (r.start_s - duration_s >= from) {
      out.emplace_back(from, r.start_s - duration_s);
    }
    from = std::max(from, r.end_s);
  }
  out.emplace_back(from, NEVER);
  return out;
}

std::optional<AvailabilityProfile::Slot> AvailabilityProfile::earliest_on_idle_nodes(std::uint32_t gpus,
                                                                                    double duration_s) const {
  const auto& view = free_->view();
  std::vector<std::vector<std::pair<double, double>>> windows(view.shape().nodes);
  for (std::uint32_t n = 0; n < view.shape().nodes; ++n) {
    if (view.is_up(model::NodeId{n})) {
      windows[n] = idle_windows(n, duration_s);
    }
  }
  double start_s = earliest_cover(windows, gpus);
  if (start_s == NEVER) {
    return std::nullopt;
  }
  std::vector<std::uint32_t> nodes;
  for (std::uint32_t n = 0; n < view.shape().nodes; ++n) {
    for (const auto& [from, to] : windows[n]) {
      if (from <= start_s && start_s <= to) {
        nodes.push_back(n);
        break;
      }
    }
  }
  std::stable_sort(nodes.begin(), nodes.end(), [&](std::uint32_t a, std::uint32_t b) { return capacity(a) > capacity(b); });
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

double AvailabilityProfile::earliest_cover(const std::vector<std::vector<std::pair<double, double>>>& windows,
                                           std::uint32_t gpus) const {
  enum Kind : int { OPENS = 0, CLOSES = 1 }; // at one instant, windows open before others close
  std::vector<std::tuple<double, int, std::uint32_t>> events;
  for (std::uint32_t n = 0; n < windows.size(); ++n) {
    for (const auto& [from, to] : windows[n]) {
      events.emplace_back(from, OPENS, n);
      if (to != NEVER) {
        events.emplace_back(to, CLOSES, n);
      }
    }
  }
  std::sort(events.begin(), events.end());
  std::uint64_t open_gpus = 0;
  for (const auto& [t, kind, n] : events) {
    if (kind == CLOSES) {
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
  for (const auto& share : placement) {
    std::uint32_t n = model::to_index(share.node);
    // A share of an already shared GPU takes no free GPU; one opening a GPU takes one.
    std::uint32_t gpus = share.milli > 0 ? std::min(planned_gpus(share), free_->free_gpus(share.node)) : share.gpus;
    if (!fits_window(n, now_s_, duration_s, gpus)) {
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
    reserved_[n].push_back({slot.start_s, slot.start_s + duration_s, planned_gpus(share)});
    ++reservation_count_;
  }
}

} // namespace acme::policies
