#pragma once

#include <cstdint>
#include <string>

#include "sim/model/job.hpp"
#include "sim/model/rng.hpp"

namespace acme::policies {

/// An infrastructure failure that struck a running training job.
struct FailureNotice {
  const model::JobSpec* job = nullptr;
  std::string category;             ///< e.g. "nvlink", "network"
  bool hang = false;                ///< the job hangs rather than crashing
  double time_s = 0.0;              ///< simulated time the failure shows (its category's `detect` after it struck)
  double local_time_of_day_s = 0.0; ///< in the cluster's own time zone, 0 .. 86400
  int local_weekday = 0;            ///< 0 = Monday .. 6 = Sunday
  std::uint32_t nodes = 0;          ///< nodes the job runs on
};

/// How a failure is handled. Times add up: failure -> detected -> diagnosed -> faulty node isolated.
struct RecoveryPlan {
  double detect_s = 0.0;        ///< until someone or something notices (for a hang: includes the timeout)
  double diagnose_s = 0.0;      ///< reading logs to find the cause
  double isolate_s = 0.0;       ///< finding and isolating the faulty node
  bool keep_nodes = false;      ///< the job holds its healthy nodes during recovery (automatic tooling)
  bool restart_at_once = false; ///< restart from the last good checkpoint without queueing again
  bool human = false;           ///< a person handled it
};

/// Decides how the failures of training jobs are handled. Called by the engine for each failure of
/// a job whose type recovery applies to. Deterministic given the random stream it is handed.
class RecoveryPolicy {
public:
  virtual ~RecoveryPolicy() = default;
  virtual RecoveryPlan on_failure(const FailureNotice& failure, model::Rng& rng) const = 0;
};

} // namespace acme::policies
