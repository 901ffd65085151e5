#include "sim/cli/run_guard.hpp"

#include <cstdio>
#include <cstdlib>

#include "sim/config/units.hpp"
#include "sim/metrics/output_set.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/error.hpp"
#include <unistd.h>

namespace acme::cli {
namespace {

double parse_option(const std::string& option, const std::string& text,
                    config::ParsedQuantity (*parse)(std::string_view), const char* example) {
  config::ParsedQuantity q = parse(text);
  if (q.error.empty() && q.value <= 0.0) {
    q.error = std::string("expected a positive value such as ") + example;
  }
  if (!q.error.empty()) {
    throw ConfigError(Location{"acme-sim run", 0, 0}, "", option + " " + excerpt(text) + ": " + q.error);
  }
  return q.value;
}

std::string progress_text(const engine::Progress& p) {
  return "simulated up to " + model::format_datetime(p.epoch_unix_s + p.now_s, 0.0).substr(0, 16) + " UTC, " +
         std::to_string(p.jobs_done) + " of " + std::to_string(p.jobs_submitted) + " submitted jobs done";
}

constexpr auto WATCH_PERIOD = std::chrono::milliseconds(50);
constexpr double WATCH_GRACE_S = 1.0; // the per-instant check, with its progress text, comes first

/// Ends the process from the watchdog thread: the message, the staging folder removed, exit code 2.
[[noreturn]] void stop_now(const std::string& line) {
  std::string text = one_line(line) + "\n";
  [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, text.data(), text.size());
  metrics::OutputSet::remove_staging_now();
  std::_Exit(2);
}

} // namespace

RunGuard::~RunGuard() {
  stop_watchdog();
}

void RunGuard::start_watchdog() {
  if (active() && !watchdog_.joinable()) {
    watchdog_ = std::thread([this] { watch(); });
  }
}

void RunGuard::stop_watchdog() {
  stopping_ = true;
  if (watchdog_.joinable()) {
    watchdog_.join();
  }
}

void RunGuard::watch() const {
  while (!stopping_) {
    std::this_thread::sleep_for(WATCH_PERIOD);
    double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (max_time_s_ > 0.0 && wall_s > max_time_s_ + WATCH_GRACE_S) {
      stop_now(time_option_ + ": the run took more than " + number_text(max_time_s_) +
               " s (within a step that did not return: loading, or a policy's call); stopped, no output written; "
               "expected a longer limit or a smaller run");
    }
    if (double rss = max_memory_bytes_ > 0.0 ? resident_bytes() : 0.0; rss > max_memory_bytes_ && rss > 0.0) {
      stop_now(memory_option_ + ": the run used " + std::to_string(static_cast<long long>(rss / (1 << 20))) +
               " MiB (within a step that did not return: loading, or a policy's call); stopped, no output "
               "written; expected a larger limit or a smaller run");
    }
  }
}

RunGuard::RunGuard(std::optional<std::string> max_time, std::optional<std::string> max_memory)
    : start_(std::chrono::steady_clock::now()) {
  if (max_time) {
    time_option_ = "--max-time " + excerpt(*max_time);
    max_time_s_ = parse_option("--max-time", *max_time, config::parse_duration_s, "\"10min\"");
  }
  if (max_memory) {
    memory_option_ = "--max-memory " + excerpt(*max_memory);
    max_memory_bytes_ = parse_option("--max-memory", *max_memory, config::parse_bytes, "\"4GiB\"");
  }
}

void RunGuard::check(const engine::Progress& progress) const {
  if (max_time_s_ > 0.0) {
    double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (wall_s > max_time_s_) {
      throw ConfigError(Location{time_option_, 0, 0}, "",
                        "the run took more than " + number_text(max_time_s_) + " s (" + progress_text(progress) +
                            "); stopped, no output written; expected a longer limit or a smaller run");
    }
  }
  if (max_memory_bytes_ > 0.0) {
    double rss = resident_bytes();
    if (rss > max_memory_bytes_) {
      throw ConfigError(Location{memory_option_, 0, 0}, "",
                        "the run used " + std::to_string(static_cast<long long>(rss / (1 << 20))) + " MiB (" +
                            progress_text(progress) +
                            "); stopped, no output written; expected a larger limit or a "
                            "smaller run");
    }
  }
}

double resident_bytes() {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr) {
    return 0.0;
  }
  unsigned long long size_pages = 0;
  unsigned long long resident_pages = 0;
  int read = std::fscanf(statm, "%llu %llu", &size_pages, &resident_pages);
  std::fclose(statm);
  return read == 2 ? static_cast<double>(resident_pages) * static_cast<double>(::sysconf(_SC_PAGESIZE)) : 0.0;
}

} // namespace acme::cli
