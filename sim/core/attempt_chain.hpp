#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::core {

/// The attempts of a run follow one another as their user resubmits them: an attempt with a
/// `resubmit_delay_s` is submitted that long after the previous attempt of its run ends, never while
/// that attempt is still held, queued or running. A workload draws the attempts as if each started at
/// its submission; when the previous attempt waited in the queue (or ran longer), the next one is held
/// back until it has ended, and its submission time becomes the real one. An attempt whose predecessor
/// has already ended goes in at its drawn time.
class AttemptChain {
public:
  /// Identifies a job's run across clusters: a workload numbers the runs of each cluster from 1.
  static std::uint64_t run_key(const model::JobSpec& spec) {
    return (static_cast<std::uint64_t>(model::to_index(spec.cluster)) << CLUSTER_SHIFT) | model::to_index(spec.run);
  }

  /// A job the workload submits now. Returns true when the chain keeps it (its run's previous attempt
  /// has not ended); it comes back from take_due() once that one has ended and the delay has passed.
  bool hold(model::JobSpec& spec);
  /// A job entered its cluster's queue (a run's attempt becomes the one its successor waits for).
  void on_submitted(const model::JobSpec& spec);
  /// A job ended (finished, failed, cancelled or rejected) at `now_s`: its held successor is due at
  /// `now_s` plus its resubmit delay.
  void on_ended(model::JobId id, double now_s);
  /// The earliest release time; infinity when none is due.
  double next_time_s() const;
  /// The attempts due at or before `now_s`, in order of time then id, their submission time set.
  std::vector<model::JobSpec> take_due(double now_s);
  /// No attempt is held or due.
  bool empty() const { return held_.empty() && due_.empty(); }

private:
  static constexpr int CLUSTER_SHIFT = 48; // run numbers stay far below 2^48

  std::unordered_map<std::uint64_t, model::JobId> last_of_run_;   ///< run_key -> its latest attempt not yet ended
  std::unordered_map<model::JobId, std::uint64_t> run_of_;        ///< attempts not yet ended -> their run
  std::unordered_map<model::JobId, model::JobSpec> held_;         ///< previous attempt -> the one that waits
  std::map<std::pair<double, model::JobId>, model::JobSpec> due_; ///< (release time, id) -> released attempt
};

} // namespace acme::core
