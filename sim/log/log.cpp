#include "sim/log/log.hpp"

#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>

#include "sim/log/log_formatter.hpp"

namespace acme::log {
namespace {

// "[sim time] [logger] [level] text"; `*` is the simulated-time flag below.
constexpr const char* PATTERN = "[%*] [%n] [%l] %v";
constexpr char SIM_TIME_FLAG = '*';

/// Prints the simulated time, as SimGrid's log lines do.
class SimTimeFlag final : public spdlog::custom_flag_formatter {
public:
  explicit SimTimeFlag(std::function<double()> clock) : clock_(std::move(clock)) {}

  void format(const spdlog::details::log_msg& /*msg*/, const std::tm& /*time*/, spdlog::memory_buf_t& dest) override {
    if (!clock_) {
      dest.push_back('-');
      return;
    }
    fmt::format_to(std::back_inserter(dest), "{:.6f}", clock_());
  }

  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SimTimeFlag>(clock_); }

private:
  std::function<double()> clock_;
};

spdlog::level::level_enum to_spdlog(Level level) {
  switch (level) {
  case Level::TRACE:
    return spdlog::level::trace;
  case Level::DEBUG:
    return spdlog::level::debug;
  case Level::INFO:
    return spdlog::level::info;
  case Level::WARN:
    return spdlog::level::warn;
  case Level::ERROR:
    return spdlog::level::err;
  case Level::OFF:
    return spdlog::level::off;
  }
  return spdlog::level::warn;
}

/// stderr, up to MAX_LOG_BYTES of log lines: a trace log of a long run would fill a disk (100 MB before a
/// 3-second --max-time stopped the default run). Past the bound one line says so and the rest is dropped.
class BoundedStderrSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
  BoundedStderrSink() {
    // ACME_LOG_MAX_BYTES lowers the bound (for tests of it); it never raises it.
    if (const char* text = std::getenv("ACME_LOG_MAX_BYTES"); text != nullptr) {
      char* end = nullptr;
      unsigned long long value = std::strtoull(text, &end, 10);
      if (end != text && *end == '\0' && value < max_bytes_) {
        max_bytes_ = static_cast<std::size_t>(value);
      }
    }
  }

protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    if (written_ >= max_bytes_) {
      return;
    }
    spdlog::memory_buf_t line;
    formatter_->format(msg, line);
    written_ += line.size();
    if (written_ >= max_bytes_) {
      std::fprintf(stderr,
                   "[-] [log] [warning] the log reached %zu bytes: later lines are dropped (expected fewer categories "
                   "or a higher level in --log)\n",
                   max_bytes_);
      return;
    }
    std::fwrite(line.data(), 1, line.size(), stderr);
  }
  void flush_() override { std::fflush(stderr); }

private:
  std::size_t written_ = 0;
  std::size_t max_bytes_ = MAX_LOG_BYTES;
};

/// The process's loggers: one per category, all writing through one stderr sink.
struct Loggers {
  std::shared_ptr<BoundedStderrSink> sink = std::make_shared<BoundedStderrSink>();
  std::array<std::shared_ptr<spdlog::logger>, CATEGORY_COUNT> by_category;

  Loggers() {
    sink->set_formatter(make_formatter({}));
    LogLevels defaults;
    for (std::size_t i = 0; i < CATEGORY_COUNT; ++i) {
      auto category = static_cast<Category>(i);
      by_category[i] = std::make_shared<spdlog::logger>(std::string(to_string(category)), sink);
      by_category[i]->set_level(to_spdlog(defaults.of(category)));
    }
  }
};

Loggers& loggers() {
  static Loggers instance;
  return instance;
}

} // namespace

std::unique_ptr<spdlog::formatter> make_formatter(std::function<double()> clock) {
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<SimTimeFlag>(SIM_TIME_FLAG, std::move(clock)).set_pattern(PATTERN);
  return formatter;
}

void configure(const LogLevels& levels) {
  Loggers& all = loggers();
  for (std::size_t i = 0; i < CATEGORY_COUNT; ++i) {
    all.by_category[i]->set_level(to_spdlog(levels.levels[i]));
  }
}

spdlog::logger& get(Category category) {
  return *loggers().by_category.at(static_cast<std::size_t>(category));
}

void set_sim_clock(std::function<double()> clock) {
  loggers().sink->set_formatter(make_formatter(std::move(clock)));
}

} // namespace acme::log
