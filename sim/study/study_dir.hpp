#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/study/plan.hpp"
#include "sim/study/point_record.hpp"

namespace acme::study {

/// An exclusive lock on a study folder (flock on DIR/.sweep.lock), so two sweeps or merges never
/// write the same folder at once. The kernel drops it when the process dies, even by SIGKILL.
class StudyLock {
public:
  /// Creates DIR if needed; throws ConfigError when DIR is not writable or another process holds it.
  explicit StudyLock(const std::string& dir);
  ~StudyLock();
  StudyLock(const StudyLock&) = delete;
  StudyLock& operator=(const StudyLock&) = delete;

private:
  int fd_ = -1;
};

/// The inputs of `acme-sim merge`, combined: the study they share and, per point, the best record
/// any input holds (ok before failed; the first input wins between equals).
struct MergedStudy {
  Plan plan; ///< shard cleared
  std::map<std::string, PointRecord> records;
  std::map<std::string, std::string> source_dir; ///< point id -> the points/<id> folder its record came from
  std::map<std::string, std::string> damaged;    ///< point id -> what is wrong with its folder (no record)
};

/// Reads every input's study.json (all must describe the same study) and point folders. Throws
/// ConfigError naming the input that is not a study folder or belongs to another study.
MergedStudy read_merge_inputs(const std::vector<std::string>& input_dirs);

/// Copies (hard-links when possible) each chosen point folder into out_dir/points/, atomically per point.
void gather_points(const MergedStudy& merged, const std::string& out_dir);

} // namespace acme::study
