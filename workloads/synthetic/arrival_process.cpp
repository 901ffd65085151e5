#include "workloads/synthetic/arrival_process.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

#include "sim/model/units.hpp"

namespace acme::workloads::synthetic {
namespace {

constexpr double HOURS_PER_DAY = 24.0;
constexpr double DAYS_PER_WEEK = 7.0;
constexpr double WEEKEND_DAYS = 2.0;
constexpr std::int64_t UNIX_EPOCH_WEEKDAY = 3; // 1970-01-01 was a Thursday (Monday = 0)
constexpr std::int64_t FIRST_WEEKEND_DAY = 5;  // Saturday
constexpr std::int64_t DAYS_IN_WEEK = 7;

} // namespace

Rhythm::Rhythm(const RhythmOptions& options, double utc_offset_s) : options_(options), utc_offset_s_(utc_offset_s) {
  if (!options_.enabled) {
    return;
  }
  double weekdays = DAYS_PER_WEEK - WEEKEND_DAYS;
  norm_ = (weekdays + WEEKEND_DAYS * options_.weekend_factor) / DAYS_PER_WEEK;
  max_factor_ = (1.0 + options_.daily_amplitude) * std::max(1.0, options_.weekend_factor) / norm_;
}

double Rhythm::factor(double unix_s) const {
  if (!options_.enabled) {
    return 1.0;
  }
  double local_s = unix_s + utc_offset_s_;
  double day = std::floor(local_s / model::SECONDS_PER_DAY);
  double hour = (local_s - day * model::SECONDS_PER_DAY) / model::SECONDS_PER_HOUR;
  double daily =
      1.0 + options_.daily_amplitude * std::cos(2.0 * std::numbers::pi * (hour - options_.peak_hour) / HOURS_PER_DAY);
  auto weekday = ((static_cast<std::int64_t>(day) + UNIX_EPOCH_WEEKDAY) % DAYS_IN_WEEK + DAYS_IN_WEEK) % DAYS_IN_WEEK;
  double weekly = weekday >= FIRST_WEEKEND_DAY ? options_.weekend_factor : 1.0;
  return daily * weekly / norm_;
}

ArrivalProcess::ArrivalProcess(double rate_per_s, const Rhythm& rhythm, double start_unix_s)
    : rate_per_s_(rate_per_s)
    , rhythm_(&rhythm)
    , now_s_(start_unix_s) {}

double ArrivalProcess::next(model::Rng& rng) {
  if (rate_per_s_ <= 0.0) {
    return std::numeric_limits<double>::infinity();
  }
  double bound = rate_per_s_ * rhythm_->max_factor();
  for (;;) {
    now_s_ += rng.exponential(1.0 / bound);
    if (rng.uniform() * rhythm_->max_factor() < rhythm_->factor(now_s_)) {
      return now_s_;
    }
  }
}

} // namespace acme::workloads::synthetic
