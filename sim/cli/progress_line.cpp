#include "sim/cli/progress_line.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "sim/model/civil_time.hpp"

namespace acme::cli {

namespace {

/// How far the run is through the workload's span and, at the pace so far, how long it has left ("" when
/// the span is not known in advance).
std::string share_and_eta(const engine::Progress& p, double wall_s) {
  if (p.span_s <= 0.0 || p.now_s <= 0.0) {
    return ""; // a trace read as it goes: its span is not known in advance
  }
  if (p.now_s >= p.span_s) {
    return " | every job submitted, the last ones running";
  }
  constexpr double PERCENT = 100.0;
  double left_s = wall_s * (p.span_s - p.now_s) / p.now_s; // at the pace so far
  return fmt::format(" | {:.0f}% of the workload's span, about {:.0f} s left", PERCENT * p.now_s / p.span_s, left_s);
}

} // namespace

void ProgressLine::update(const engine::Progress& p) {
  if (!enabled_) {
    return;
  }
  auto now = std::chrono::steady_clock::now();
  constexpr auto REDRAW = std::chrono::milliseconds(250);
  if (drawn_ && now - last_ < REDRAW) {
    return;
  }
  last_ = now;
  drawn_ = true;
  double wall = std::chrono::duration<double>(now - start_).count();
  std::string date = model::format_datetime(p.epoch_unix_s + p.now_s, 0.0).substr(0, 16);
  std::fprintf(stderr, "\r  simulated %s UTC | %llu jobs submitted, %llu done | %.0f jobs/s%s   ", date.c_str(),
               static_cast<unsigned long long>(p.jobs_submitted), static_cast<unsigned long long>(p.jobs_done),
               wall > 0 ? static_cast<double>(p.jobs_done) / wall : 0.0, share_and_eta(p, wall).c_str());
  std::fflush(stderr);
}

void ProgressLine::clear() {
  if (drawn_) {
    std::fprintf(stderr, "\r%160s\r", ""); // wider than the longest line
    std::fflush(stderr);
  }
}

} // namespace acme::cli
