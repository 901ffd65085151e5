#include "sim/log/log.hpp"

#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <iterator>
#include <memory>
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

/// The process's loggers: one per category, all writing through one stderr sink.
struct Loggers {
  std::shared_ptr<spdlog::sinks::stderr_sink_mt> sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
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
