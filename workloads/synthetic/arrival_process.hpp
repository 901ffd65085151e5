#pragma once

#include "sim/model/rng.hpp"

namespace acme::workloads::synthetic {

/// Daily and weekly rhythm of submissions in a cluster's local time (config `workload.rhythm`).
struct RhythmOptions {
  bool enabled = true;
  double daily_amplitude = 0.0; ///< relative swing of the daily cosine, in [0, 1)
  double peak_hour = 0.0;       ///< local hour of the daily peak, in [0, 24)
  double weekend_factor = 1.0;  ///< rate on Saturday and Sunday relative to weekdays
};

/// Rate multiplier over time: (1 + a cos(2 pi (hour - peak) / 24)) x (weekend factor on weekends),
/// normalised to mean 1 over a week, so the rhythm moves jobs in time without changing their number.
class Rhythm {
public:
  Rhythm(const RhythmOptions& options, double utc_offset_s);
  double factor(double unix_s) const;
  double max_factor() const { return max_factor_; }

private:
  RhythmOptions options_;
  double utc_offset_s_ = 0.0;
  double norm_ = 1.0;
  double max_factor_ = 1.0;
};

/// A Poisson process of `rate_per_s` modulated by a rhythm (thinning, Lewis and Shedler 1979).
class ArrivalProcess {
public:
  ArrivalProcess(double rate_per_s, const Rhythm& rhythm, double start_unix_s);
  /// The next arrival (Unix seconds, increasing); +infinity when the rate is 0.
  double next(model::Rng& rng);

private:
  double rate_per_s_;
  const Rhythm* rhythm_;
  double now_s_;
};

} // namespace acme::workloads::synthetic
