#pragma once

#include <cstdint>
#include <limits>

#include "sim/model/job.hpp"

namespace acme::policies {

/// What a checkpoint policy knows when it chooses the next interval.
struct CheckpointSituation {
  const model::JobSpec* job = nullptr;
  std::uint32_t nodes = 0;        ///< nodes the job runs on
  double checkpoint_cost_s = 0.0; ///< C: training stall of one checkpoint, last measured (or estimated)
  double mtbf_s = 0.0;            ///< M: the job's expected time between failures (infinity: no failures)
  double restart_cost_s = 0.0;    ///< R: time to restart after a failure, as last measured (or estimated)
};

inline constexpr double NEVER_S = std::numeric_limits<double>::infinity();

/// Chooses how much computation a training job does between two checkpoints. Called by the engine
/// when the job starts computing and after each checkpoint. Pure: no side effects, no blocking.
class CheckpointPolicy {
public:
  virtual ~CheckpointPolicy() = default;
  /// Seconds of computation until the next checkpoint; NEVER_S for none.
  virtual double interval_s(const CheckpointSituation& situation) const = 0;
};

/// Young's first-order optimum sqrt(2 C M) (Young 1974, CACM 17(9)).
double young_interval_s(double cost_s, double mtbf_s);
/// Daly's higher-order optimum (Daly 2006, FGCS 22(3), eq. 37): for C < 2M,
/// sqrt(2CM) [1 + (1/3) sqrt(C/2M) + (1/9) (C/2M)] - C; otherwise M.
double daly_interval_s(double cost_s, double mtbf_s);

} // namespace acme::policies
