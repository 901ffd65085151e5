#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/model/ids.hpp"
#include "sim/model/name_table.hpp"

namespace acme::metrics {

/// Jain's fairness index of `values` (R. Jain, D. Chiu, W. Hawe, "A Quantitative Measure of Fairness and
/// Discrimination for Resource Allocation in Shared Computer Systems", DEC-TR-301, 1984, eq. 1):
/// J = (sum x)^2 / (n * sum x^2), in [1/n, 1]; 1 when every value is equal. Defined here as 1 when there are
/// no values or all are zero (nobody is treated worse than anybody else). Values must be >= 0.
double jain_index(std::span<const double> values);

/// One of the users served worst in a class: the most waiting on average.
struct ServedUser {
  std::string user;            ///< name as in jobs.csv's `user` column
  std::uint64_t jobs = 0;      ///< its GPU jobs of the class that were queued (not rejected)
  double mean_wait_s = 0.0;    ///< their mean queueing delay
  double gpu_hour_share = 0.0; ///< its share (0..1) of the class's GPU hours
};

/// Fairness between the users of one class of GPU jobs (summary.json's `fairness` object).
struct Fairness {
  static constexpr std::size_t WORST_SERVED = 5; ///< users listed in worst_served, at most
  std::size_t users = 0;                         ///< users with at least one queued GPU job of the class
  double mean_wait_jain = 1.0;                   ///< Jain's index of the per-user mean queueing delays
  double gpu_hours_jain = 1.0;                   ///< Jain's index of the per-user GPU-hour shares
  /// Up to WORST_SERVED users with a positive mean wait, the longest first; ties in the order of the names.
  std::vector<ServedUser> worst_served;
};

/// Per-user sums of one class's GPU jobs in one cluster, indexed by the interned user id.
class UserTally {
public:
  /// One queued (not rejected) GPU job of `user`: its queueing delay and its GPU time (seconds).
  void add(model::UserId user, double queue_s, double gpu_seconds);
  /// Adds `other`'s sums (e.g. every job type into the cluster's all-GPU tally).
  void merge(const UserTally& other);
  /// The class's fairness figures; `names` gives each user's name (which also orders ties).
  Fairness fairness(const model::NameTable& names) const;

private:
  struct Sums {
    std::uint64_t jobs = 0;
    double queue_s = 0.0;
    double gpu_seconds = 0.0;
  };
  std::vector<Sums> by_user_;
};

/// The `fairness` object of summary.json ({"users": ..., "mean_wait_jain": ..., ...}, braces included).
std::string fairness_json(const Fairness& fairness);

} // namespace acme::metrics
