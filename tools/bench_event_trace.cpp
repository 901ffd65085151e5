// Micro-benchmark of the event trace (events.csv): writes ROWS rows of an Acme-like mix (per job:
// submit, start on 1-4 nodes, a checkpoint now and then, end; a node failure and repair now and then),
// commits the file and prints rows/s and bytes. Not a test: run it by hand or from tools/bench.sh.
//   acme-bench-event-trace [ROWS (default 1000000)] [DIR (default: the system temp dir)]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/metrics/event_trace.hpp"
#include <unistd.h>

namespace {

using acme::model::ClusterId;
using acme::model::NodeId;

constexpr std::uint64_t DEFAULT_ROWS = 1'000'000;
constexpr std::uint32_t NODES_PER_CLUSTER = 300;
constexpr std::uint32_t MAX_JOB_NODES = 4;
constexpr std::uint64_t CHECKPOINT_EVERY_JOBS = 3;
constexpr std::uint64_t NODE_FAILURE_EVERY_JOBS = 500;
constexpr double SECONDS_PER_JOB = 14.0; // ~180k jobs in a month
constexpr double JOB_LENGTH_S = 3600.0;

struct Figures {
  std::uint64_t rows = 0;
  std::uint64_t bytes = 0;
  double append_s = 0.0; ///< building and writing the rows
  double commit_s = 0.0; ///< the final write, fsync and rename
};

/// The rows of one job, and now and then a node failure and repair on its first node.
void one_job(acme::metrics::EventTrace& trace, std::uint64_t index, acme::model::JobSpec& job,
             acme::model::Placement& placement) {
  double t = static_cast<double>(index) * SECONDS_PER_JOB;
  job.cluster = ClusterId{static_cast<std::uint16_t>(index % 2)};
  job.name.assign(index % 2 == 0 ? "seren-" : "kalos-");
  job.name += std::to_string(index);
  placement.resize(1 + index % MAX_JOB_NODES);
  for (std::size_t i = 0; i < placement.size(); ++i) {
    placement[i].node = NodeId{static_cast<std::uint32_t>((index * 7 + i) % NODES_PER_CLUSTER)};
    placement[i].gpus = 8;
  }
  trace.submit(t, job);
  trace.start(t + 1.5, job, placement);
  if (index % CHECKPOINT_EVERY_JOBS == 0) {
    trace.checkpoint(t + JOB_LENGTH_S / 2, job, "async");
  }
  if (index % NODE_FAILURE_EVERY_JOBS == 0) {
    trace.node_down(t + 2.0, job.cluster, placement[0].node, "nvlink_error");
    trace.node_up(t + JOB_LENGTH_S, job.cluster, placement[0].node, "repaired");
  }
  trace.end(t + JOB_LENGTH_S, job, acme::model::JobState::COMPLETED);
}

Figures run(std::uint64_t rows, const std::string& path) {
  using clock = std::chrono::steady_clock;
  Figures f;
  acme::metrics::EventTrace trace(path, {"seren", "kalos"});
  acme::model::JobSpec job;
  acme::model::Placement placement;
  auto t0 = clock::now();
  for (std::uint64_t i = 0; trace.rows() < rows; ++i) {
    one_job(trace, i, job, placement);
  }
  auto t1 = clock::now();
  f.rows = trace.rows();
  f.bytes = trace.bytes();
  trace.commit();
  auto t2 = clock::now();
  f.append_s = std::chrono::duration<double>(t1 - t0).count();
  f.commit_s = std::chrono::duration<double>(t2 - t1).count();
  return f;
}

} // namespace

int main(int argc, char** argv) {
  std::uint64_t rows = argc > 1 ? std::stoull(argv[1]) : DEFAULT_ROWS;
  std::filesystem::path dir = argc > 2 ? std::filesystem::path(argv[2]) : std::filesystem::temp_directory_path();
  std::string path = (dir / ("acme-bench-events-" + std::to_string(::getpid()) + ".csv")).string();
  Figures f = run(rows, path);
  std::filesystem::remove(path);
  double total_s = f.append_s + f.commit_s;
  std::printf("event trace: %llu rows, %llu bytes (%.1f bytes/row) in %.3f s: %.2fM rows/s, %.0f MB/s "
              "(rows %.3f s, commit with fsync %.3f s)\n",
              static_cast<unsigned long long>(f.rows), static_cast<unsigned long long>(f.bytes),
              static_cast<double>(f.bytes) / static_cast<double>(f.rows), total_s,
              static_cast<double>(f.rows) / total_s / 1e6, static_cast<double>(f.bytes) / total_s / 1e6, f.append_s,
              f.commit_s);
  return 0;
}
