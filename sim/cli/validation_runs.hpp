#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/cli/validate_subjects.hpp"

namespace acme::cli {

/// One job of a validation run, read back from its jobs.csv.
struct JobMeasure {
  double wall_s = 0.0; ///< end - first start
  double work_s = 0.0;
  double stall_s = 0.0;
  double restore_s = 0.0;
  std::uint32_t checkpoints = 0;
  std::uint32_t attempts = 0;
  std::uint32_t failures = 0;
};

struct Costs {
  double checkpoint_s = 0.0; ///< C, as the simulation measured it
  double restore_s = 0.0;    ///< R, as the simulation measured it
};

/// An AcmeTrace file of `jobs` identical Pretrain jobs of `gpus` GPUs and `work_s` seconds.
void write_uniform_trace(const std::string& path, int jobs, std::uint32_t gpus, double work_s);
/// The idle-cluster oracle scenario: `nodes` single-GPU nodes, NIC-bound 1 GB/s storage path, no
/// storage contention, one failure category at `rate_per_1000_node_days`, automatic recovery with a
/// fixed `downtime_s`, synchronous checkpoints by `policy`.
std::string oracle_config(int nodes, int seed, double rate_per_1000_node_days, double downtime_s,
                          const std::string& policy);
/// Acme-like Seren nodes (configs/acme.yaml's platform), no failures, checkpoints every 30 min.
std::string acme_like_config(bool async);
/// Runs `acme-sim run` on `config` (written into `dir`) in its own process; parses jobs.csv.
std::vector<JobMeasure> run_and_measure(const ValidationContext& ctx, const std::string& dir,
                                        const std::string& config);

Costs measured_costs(const std::vector<JobMeasure>& jobs);
double mean_wall_s(const std::vector<JobMeasure>& jobs);
/// The interval of the failure-free jobs, bracketed by their checkpoint count: [W/(n+1), W/n].
std::pair<double, double> interval_bracket_s(const std::vector<JobMeasure>& jobs);
/// Minimum of a smooth curve sampled at xs: a parabola in log(x) through the lowest point and its
/// neighbours.
double fitted_minimum(const std::vector<double>& xs, const std::vector<double>& ys);

/// Prints "name: simulated X vs reference Y (error, tolerance): PASS|FAIL" lines.
class Report {
public:
  explicit Report(std::string subject);
  template <class... A>
  void line(const char* format, A... args) {
    std::printf(format, args...);
    std::printf("\n");
  }
  bool check(const std::string& what, double simulated, double reference, double rel_tolerance);
  bool check_range(const std::string& what, double value, double low, double high);
  int finish(bool ok);

private:
  std::string subject_;
  int failed_ = 0;
};

} // namespace acme::cli
