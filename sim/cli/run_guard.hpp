#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "sim/engine/simulation.hpp"

namespace acme::cli {

/// `--max-time DURATION` and `--max-memory SIZE`: a run that passes either stops with a ConfigError naming
/// the option (exit code 2); its output folder keeps what it held (nothing is committed). Checked with the
/// progress callback, every 50 ms of wall-clock time (at the end of a simulated instant). A watchdog
/// thread covers what never reaches the end of an instant (loading a config, a Python policy that loops,
/// sleeps or allocates within one call): one second past a limit it says so on one line, removes the
/// run's staging folder and ends the process with exit code 2.
class RunGuard {
public:
  /// Parses the options' texts ("10min", "4GiB"); throws ConfigError naming the option when malformed.
  RunGuard(std::optional<std::string> max_time, std::optional<std::string> max_memory);

  /// Throws ConfigError when the run has used more wall-clock time or memory than allowed.
  void check(const engine::Progress& progress) const;
  bool active() const { return max_time_s_ > 0.0 || max_memory_bytes_ > 0.0; }
  /// Starts the watchdog thread (when a limit is set); it stops with stop_watchdog() or the guard.
  void start_watchdog();
  void stop_watchdog();
  ~RunGuard();
  RunGuard(const RunGuard&) = delete;
  RunGuard& operator=(const RunGuard&) = delete;

private:
  std::string time_option_;
  std::string memory_option_;
  double max_time_s_ = 0.0;       ///< 0: no limit
  double max_memory_bytes_ = 0.0; ///< 0: no limit
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> stopping_{false};
  std::thread watchdog_;

  void watch() const;
};

/// Resident memory of this process in bytes (Linux /proc/self/statm); 0 when unknown.
double resident_bytes();

} // namespace acme::cli
