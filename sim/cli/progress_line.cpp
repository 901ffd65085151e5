#include "sim/cli/progress_line.hpp"

#include <cstdio>

#include "sim/model/civil_time.hpp"

namespace acme::cli {

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
  std::fprintf(stderr, "\r  simulated %s UTC | %llu jobs submitted, %llu done | %.0f jobs/s   ", date.c_str(),
               static_cast<unsigned long long>(p.jobs_submitted), static_cast<unsigned long long>(p.jobs_done),
               wall > 0 ? static_cast<double>(p.jobs_done) / wall : 0.0);
  std::fflush(stderr);
}

void ProgressLine::clear() {
  if (drawn_) {
    std::fprintf(stderr, "\r%80s\r", "");
    std::fflush(stderr);
  }
}

} // namespace acme::cli
