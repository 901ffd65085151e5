#pragma once

#include <string>
#include <vector>

#include "sim/study/point.hpp"
#include "sim/study/point_record.hpp"

namespace acme::study {

/// How a point is simulated: `executable args... CONFIG -o DIR --quiet --seed N --set k=v ...`
/// (for acme-sim sweep: the acme-sim binary itself and {"run"}; SimGrid allows one simulation per
/// process, so every point is its own process).
struct WorkerCommand {
  std::string executable;
  std::vector<std::string> args;
};

/// The full command line of one point's worker writing into `out_dir`.
std::vector<std::string> worker_argv(const WorkerCommand& worker, const std::string& base_config, const Point& point,
                                     const std::string& out_dir);

/// Runs one point in a child process into points_dir/.tmp-<id>/ (the worker's stdout discarded, its
/// stderr kept in stderr.log), writes point.json there and renames the folder to points_dir/<id>/
/// (replacing an earlier failed attempt), so a finished point appears whole or not at all. A failure
/// (non-zero exit, a signal, a missing summary.json) is recorded, never thrown. Safe to call from
/// several threads at once for different points.
PointRecord run_point(const WorkerCommand& worker, const std::string& base_config, const Point& point,
                      const std::string& points_dir);

/// Removes temporary point folders (.tmp-*, .old-*) a killed sweep left behind; call under the study lock.
void remove_stale_temporaries(const std::string& points_dir);

} // namespace acme::study
