#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

// Light on purpose: spdlog costs seconds per translation unit. Code that logs includes this header and
// <spdlog/logger.h> in its .cpp file, then writes `acme::log::get(acme::log::Category::ENGINE).debug(...)`.
namespace spdlog {
class logger;
} // namespace spdlog

namespace acme::log {

/// One named logger per layer (STYLE C5). The names are the ones `--log` and ACME_LOG accept.
/// The most log output a process writes (1 GiB); past it, one line says so and later lines are dropped.
inline constexpr std::size_t MAX_LOG_BYTES = std::size_t{1} << 30;

enum class Category : std::uint8_t { CLI, CONFIG, ENGINE, METRICS, POLICY, STUDY, WORKLOAD };
inline constexpr std::size_t CATEGORY_COUNT = 7;

/// Severity, lowest first; OFF silences a logger.
enum class Level : std::uint8_t { TRACE, DEBUG, INFO, WARN, ERROR, OFF };
inline constexpr std::size_t LEVEL_COUNT = 6;

/// "engine", "policy", ...
std::string_view to_string(Category category);
/// "trace", "debug", "info", "warn", "error", "off"
std::string_view to_string(Level level);

/// `level` for every category.
constexpr std::array<Level, CATEGORY_COUNT> all_at(Level level) {
  std::array<Level, CATEGORY_COUNT> levels{};
  levels.fill(level);
  return levels;
}

/// The level of every category. The default is warnings only: a normal run prints nothing.
struct LogLevels {
  std::array<Level, CATEGORY_COUNT> levels = all_at(Level::WARN);

  Level of(Category category) const { return levels[static_cast<std::size_t>(category)]; }
  friend bool operator==(const LogLevels&, const LogLevels&) = default;
};

/// Applies a setting such as "debug" (every category), "engine=debug" or "engine=debug,policy=info"
/// (items in order, later ones win) on top of `levels`. `origin` says where the text came from
/// ("--log", "ACME_LOG=") and starts the error message. Throws ConfigError on an unknown level or
/// category or an empty item.
void apply_spec(LogLevels& levels, std::string_view spec, std::string_view origin);

/// Sets the level of every logger. Called once at start-up (cli/main.cpp); before that, every
/// logger logs warnings only.
void configure(const LogLevels& levels);

/// The logger of `category`, created with the others at first use and kept for the process. Every
/// line it writes to stderr looks like "[1234.500000] [engine] [debug] text", the first field being
/// the simulated time in seconds ("-" while no simulated clock is set).
spdlog::logger& get(Category category);

/// Makes every log line show `clock()` (simulated seconds); an empty function shows "-" again.
/// The engine sets it when its run starts and clears it when the run ends (see SimClockScope).
void set_sim_clock(std::function<double()> clock);

/// Sets the simulated clock for its lifetime: `acme::log::SimClockScope clock([&] { return now_s; });`
class SimClockScope {
public:
  explicit SimClockScope(std::function<double()> clock) { set_sim_clock(std::move(clock)); }
  ~SimClockScope() { set_sim_clock({}); }
  SimClockScope(const SimClockScope&) = delete;
  SimClockScope& operator=(const SimClockScope&) = delete;
};

} // namespace acme::log
