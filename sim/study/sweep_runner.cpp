#include "sim/study/sweep_runner.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <mutex>
#include <thread>

#include <sched.h>

namespace acme::study {

void run_points(const std::vector<Point>& points, const PoolOptions& options) {
  if (points.empty()) {
    return;
  }
  int jobs = static_cast<int>(std::max<std::size_t>(1, std::min(options.jobs, points.size())));
  // The tasks block on child processes, not on the CPU: allow as many threads as workers even when
  // that exceeds the core count (TBB's default limit).
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(jobs));
  tbb::task_arena arena(jobs);
  std::mutex done_mutex;
  arena.execute([&] {
    // One point per task (simple_partitioner, grain 1): a free worker always takes the next point.
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, points.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            PointRecord record = run_point(options.worker, options.base_config, points[i], options.points_dir);
            if (options.on_done) {
              std::lock_guard lock(done_mutex);
              options.on_done(points[i], record);
            }
          }
        },
        tbb::simple_partitioner());
  });
}

std::size_t available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return std::max(1, CPU_COUNT(&set));
  }
  return std::max(1U, std::thread::hardware_concurrency());
}

} // namespace acme::study
