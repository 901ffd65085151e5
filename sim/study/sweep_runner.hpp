#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sim/study/point_runner.hpp"

namespace acme::study {

struct PoolOptions {
  std::size_t jobs = 1; ///< worker processes at once
  WorkerCommand worker;
  std::string base_config;
  std::string points_dir;
  /// Called after each point, one call at a time (under a lock), from a pool thread.
  std::function<void(const Point&, const PointRecord&)> on_done;
};

/// Runs `points` with at most `jobs` worker processes at a time; TBB's arena bounds the concurrency
/// (each task blocks on its child process). A failing point never stops the others.
void run_points(const std::vector<Point>& points, const PoolOptions& options);

/// The CPUs this process may use (its affinity mask, as Slurm and taskset set it), at least 1.
std::size_t available_cpus();

} // namespace acme::study
