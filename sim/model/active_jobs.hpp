#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "sim/model/decision.hpp"
#include "sim/model/id_table.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::model {

/// QUEUED: waiting for the scheduler; RUNNING: holds resources; HELD: holds nothing and waits for
/// something other than the scheduler (recovery after a failure), not counted as queued.
enum class JobPhase : std::uint8_t { QUEUED, RUNNING, HELD };

/// "queued", "running" or "held" (held: recovering from a failure): the name Python policies read too.
constexpr const char* to_string(JobPhase phase) {
  switch (phase) {
  case JobPhase::QUEUED:
    return "queued";
  case JobPhase::RUNNING:
    return "running";
  case JobPhase::HELD:
    return "held";
  }
  return "held";
}

/// What policies may read about an active (queued or running) job.
struct JobEntry {
  JobSpec spec;
  JobPhase phase = JobPhase::QUEUED;
  double queued_since_s = 0.0;   ///< time of the last (re)submission
  double start_time_s = 0.0;     ///< start of the current attempt (valid while RUNNING)
  Placement placement;           ///< where it runs (valid while RUNNING)
  double attained_gpu_s = 0.0;   ///< GPU-seconds of service received so far, all attempts
  std::uint32_t preemptions = 0; ///< times it was preempted
};

/// The active jobs of a cluster in id order, with an index by id: a lookup in a backlog of any size is
/// one table access rather than a walk down a tree (schedulers look up every job a pass examines).
class ActiveJobs {
public:
  using Map = std::map<JobId, JobEntry>;

  ActiveJobs() = default;
  ActiveJobs(const ActiveJobs& other) : map_(other.map_) { reindex(); }
  ActiveJobs& operator=(const ActiveJobs& other) {
    if (this != &other) {
      map_ = other.map_;
      reindex();
    }
    return *this;
  }
  // A moved std::map keeps its nodes, so the index stays valid.
  ActiveJobs(ActiveJobs&&) noexcept = default;
  ActiveJobs& operator=(ActiveJobs&&) noexcept = default;
  ~ActiveJobs() = default;

  const Map& map() const { return map_; }
  std::size_t size() const { return map_.size(); }
  JobEntry* find(JobId id) const { return index_.get(id); }
  /// Adds a job; nullptr when one with this id is active already.
  JobEntry* emplace(JobId id, JobEntry entry) {
    auto [it, inserted] = map_.emplace(id, std::move(entry));
    if (!inserted) {
      return nullptr;
    }
    index_.set(id, &it->second);
    return &it->second;
  }
  void erase(JobId id) {
    map_.erase(id);
    index_.erase(id);
  }

private:
  void reindex() {
    index_.clear();
    for (auto& [id, entry] : map_) {
      index_.set(id, &entry);
    }
  }

  Map map_;
  IdTable<JobEntry*> index_;
};

} // namespace acme::model
