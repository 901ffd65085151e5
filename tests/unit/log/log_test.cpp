#include <catch2/catch.hpp>
#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <string>

#include "sim/log/log.hpp"
#include "sim/log/log_formatter.hpp"
#include "sim/model/error.hpp"

using namespace acme;
using acme::log::Category;
using acme::log::Level;
using acme::log::LogLevels;

namespace {

std::string error_of_spec(std::string_view spec, std::string_view origin = "--log") {
  LogLevels levels;
  try {
    acme::log::apply_spec(levels, spec, origin);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

/// What one line logged through a logger with the acme formatter looks like.
std::string formatted(std::function<double()> clock, const std::string& text) {
  std::ostringstream out;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(out);
  sink->set_formatter(acme::log::make_formatter(std::move(clock)));
  spdlog::logger logger("engine", sink);
  logger.set_level(spdlog::level::debug);
  logger.debug("{} {}", text, 4711);
  return out.str();
}

} // namespace

TEST_CASE("log::apply_spec: levels for all or some categories", "[log][spec]") {
  LogLevels levels;
  CHECK(levels.of(Category::ENGINE) == Level::WARN);
  SECTION("a bare level sets every category") {
    acme::log::apply_spec(levels, "debug", "--log");
    for (std::size_t i = 0; i < acme::log::CATEGORY_COUNT; ++i) {
      CHECK(levels.levels[i] == Level::DEBUG);
    }
  }
  SECTION("category=level sets one, a list applies in order") {
    acme::log::apply_spec(levels, "engine=trace,policy=info", "--log");
    CHECK(levels.of(Category::ENGINE) == Level::TRACE);
    CHECK(levels.of(Category::POLICY) == Level::INFO);
    CHECK(levels.of(Category::CONFIG) == Level::WARN);
    acme::log::apply_spec(levels, "off,config=error", "--log");
    CHECK(levels.of(Category::ENGINE) == Level::OFF);
    CHECK(levels.of(Category::CONFIG) == Level::ERROR);
  }
  SECTION("names round-trip") {
    CHECK(acme::log::to_string(Category::WORKLOAD) == "workload");
    CHECK(acme::log::to_string(Level::WARN) == "warn");
  }
}

TEST_CASE("log::apply_spec: bad settings are one-line errors naming the input", "[log][spec]") {
  CHECK(error_of_spec("engine=loud") ==
        "--log engine=loud: unknown log level \"loud\"; expected one of: trace, debug, info, warn, error, off");
  CHECK(error_of_spec("engnie=debug") ==
        "--log engnie=debug: unknown log category \"engnie\"; expected one of: cli, config, engine, metrics, policy, "
        "study, workload (did you mean \"engine\"?)");
  CHECK(error_of_spec("debug,", "ACME_LOG=") ==
        "ACME_LOG=debug,: empty log setting; expected LEVEL or CATEGORY=LEVEL, comma-separated (e.g. engine=debug)");
  CHECK(error_of_spec("") != "");
  SECTION("a bad setting changes nothing") {
    LogLevels levels;
    CHECK_THROWS_AS(acme::log::apply_spec(levels, "debug,engine=loud", "--log"), ConfigError);
    CHECK(levels == LogLevels{});
  }
}

TEST_CASE("log::formatter: every line starts with the simulated time", "[log][format]") {
  CHECK(formatted([] { return 1234.5; }, "job") == "[1234.500000] [engine] [debug] job 4711\n");
  CHECK(formatted({}, "before the run") == "[-] [engine] [debug] before the run 4711\n");
}

TEST_CASE("log::configure: the named loggers take the configured levels", "[log][configure]") {
  CHECK(acme::log::get(Category::ENGINE).name() == "engine");
  CHECK(acme::log::get(Category::CLI).name() == "cli");
  CHECK_FALSE(acme::log::get(Category::ENGINE).should_log(spdlog::level::info));
  CHECK(acme::log::get(Category::ENGINE).should_log(spdlog::level::warn));
  LogLevels levels;
  acme::log::apply_spec(levels, "engine=debug", "--log");
  acme::log::configure(levels);
  CHECK(acme::log::get(Category::ENGINE).should_log(spdlog::level::debug));
  CHECK_FALSE(acme::log::get(Category::POLICY).should_log(spdlog::level::debug));
  acme::log::configure(LogLevels{});
  CHECK_FALSE(acme::log::get(Category::ENGINE).should_log(spdlog::level::debug));
  {
    acme::log::SimClockScope clock([] { return 1.0; }); // sets and clears without touching the levels
  }
  CHECK(acme::log::get(Category::ENGINE).should_log(spdlog::level::warn));
}
