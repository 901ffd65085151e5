#include "sim/metrics/fairness.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/model/text_escape.hpp"

namespace acme::metrics {
namespace {

/// One user's figures before ranking.
struct UserRow {
  const std::string* name = nullptr;
  std::uint64_t jobs = 0;
  double mean_wait_s = 0.0;
  double gpu_seconds = 0.0;
};

/// Orders the worst served first: the longest mean wait, then the names (unique in a NameTable).
bool served_worse(const UserRow& a, const UserRow& b) {
  if (a.mean_wait_s != b.mean_wait_s) {
    return a.mean_wait_s > b.mean_wait_s;
  }
  return *a.name < *b.name;
}

} // namespace

double jain_index(std::span<const double> values) {
  double sum = 0.0;
  double sum_squares = 0.0;
  for (double x : values) {
    sum += x;
    sum_squares += x * x;
  }
  if (sum_squares <= 0.0) {
    return 1.0; // no values, or all zero: everybody is treated alike
  }
  return sum * sum / (static_cast<double>(values.size()) * sum_squares);
}

void UserTally::add(model::UserId user, double queue_s, double gpu_seconds) {
  std::size_t u = model::to_index(user);
  if (u >= by_user_.size()) {
    by_user_.resize(u + 1);
  }
  Sums& s = by_user_[u];
  ++s.jobs;
  s.queue_s += queue_s;
  s.gpu_seconds += gpu_seconds;
}

void UserTally::merge(const UserTally& other) {
  if (other.by_user_.size() > by_user_.size()) {
    by_user_.resize(other.by_user_.size());
  }
  for (std::size_t u = 0; u < other.by_user_.size(); ++u) {
    by_user_[u].jobs += other.by_user_[u].jobs;
    by_user_[u].queue_s += other.by_user_[u].queue_s;
    by_user_[u].gpu_seconds += other.by_user_[u].gpu_seconds;
  }
}

Fairness UserTally::fairness(const model::NameTable& names) const {
  std::vector<UserRow> rows;
  for (std::size_t u = 0; u < by_user_.size(); ++u) {
    const Sums& s = by_user_[u];
    if (s.jobs > 0) {
      rows.push_back({&names.name(model::UserId{static_cast<std::uint32_t>(u)}), s.jobs,
                      s.queue_s / static_cast<double>(s.jobs), s.gpu_seconds});
    }
  }
  // Sums in the order of the names, so that the figures do not depend on the order users were interned.
  std::sort(rows.begin(), rows.end(), [](const UserRow& a, const UserRow& b) { return *a.name < *b.name; });
  std::vector<double> waits_s;
  std::vector<double> gpu_seconds;
  double total_gpu_seconds = 0.0;
  for (const UserRow& r : rows) {
    waits_s.push_back(r.mean_wait_s);
    gpu_seconds.push_back(r.gpu_seconds);
    total_gpu_seconds += r.gpu_seconds;
  }
  Fairness f;
  f.users = rows.size();
  f.mean_wait_jain = jain_index(waits_s);
  f.gpu_hours_jain = jain_index(gpu_seconds); // the index is scale-free: shares give the same value
  std::sort(rows.begin(), rows.end(), served_worse);
  for (const UserRow& r : rows) {
    if (f.worst_served.size() == Fairness::WORST_SERVED || r.mean_wait_s <= 0.0) {
      break;
    }
    double share = total_gpu_seconds > 0.0 ? r.gpu_seconds / total_gpu_seconds : 0.0;
    f.worst_served.push_back({*r.name, r.jobs, r.mean_wait_s, share});
  }
  return f;
}

std::string fairness_json(const Fairness& f) {
  std::string worst;
  for (const ServedUser& u : f.worst_served) {
    worst += fmt::format(R"({}{{"user": {}, "jobs": {}, "mean_wait_s": {}, "gpu_hour_share": {}}})",
                         worst.empty() ? "" : ", ", model::json_quote(u.user), u.jobs, u.mean_wait_s, u.gpu_hour_share);
  }
  return fmt::format(R"({{"users": {}, "mean_wait_jain": {}, "gpu_hours_jain": {}, "worst_served": [{}]}})", f.users,
                     f.mean_wait_jain, f.gpu_hours_jain, worst);
}

} // namespace acme::metrics
