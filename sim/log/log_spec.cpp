#include <optional>
#include <string>
#include <vector>

#include "sim/log/log.hpp"
#include "sim/model/error.hpp"

namespace acme::log {
namespace {

constexpr std::array<std::string_view, CATEGORY_COUNT> CATEGORY_NAMES = {"cli",    "config", "engine",  "metrics",
                                                                         "policy", "study",  "workload"};
constexpr std::array<std::string_view, LEVEL_COUNT> LEVEL_NAMES = {"trace", "debug", "info", "warn", "error", "off"};

template <class Enum, std::size_t N>
std::optional<Enum> find_name(const std::array<std::string_view, N>& names, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == text) {
      return static_cast<Enum>(i);
    }
  }
  return std::nullopt;
}

template <std::size_t N>
std::vector<std::string> name_list(const std::array<std::string_view, N>& names) {
  return {names.begin(), names.end()};
}

[[noreturn]] void fail(std::string_view origin, std::string_view spec, const std::string& what) {
  std::string where = std::string(origin) + (origin.ends_with('=') ? "" : " ") + std::string(spec);
  throw ConfigError(Location{where, 0, 0}, "", what);
}

Level parse_level(std::string_view text, std::string_view origin, std::string_view spec) {
  if (auto level = find_name<Level>(LEVEL_NAMES, text)) {
    return *level;
  }
  fail(origin, spec,
       "unknown log level \"" + std::string(text) + "\"; expected one of: " + join(name_list(LEVEL_NAMES)));
}

Category parse_category(std::string_view text, std::string_view origin, std::string_view spec) {
  if (auto category = find_name<Category>(CATEGORY_NAMES, text)) {
    return *category;
  }
  std::vector<std::string> names = name_list(CATEGORY_NAMES);
  std::string hint = did_you_mean(std::string(text), names);
  fail(origin, spec,
       "unknown log category \"" + std::string(text) + "\"; expected one of: " + join(names) +
           (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)"));
}

void apply_item(LogLevels& levels, std::string_view item, std::string_view origin, std::string_view spec) {
  if (item.empty()) {
    fail(origin, spec, "empty log setting; expected LEVEL or CATEGORY=LEVEL, comma-separated (e.g. engine=debug)");
  }
  std::size_t eq = item.find('=');
  if (eq == std::string_view::npos) {
    levels.levels.fill(parse_level(item, origin, spec));
    return;
  }
  Category category = parse_category(item.substr(0, eq), origin, spec);
  levels.levels[static_cast<std::size_t>(category)] = parse_level(item.substr(eq + 1), origin, spec);
}

} // namespace

std::string_view to_string(Category category) {
  return CATEGORY_NAMES.at(static_cast<std::size_t>(category));
}

std::string_view to_string(Level level) {
  return LEVEL_NAMES.at(static_cast<std::size_t>(level));
}

void apply_spec(LogLevels& levels, std::string_view spec, std::string_view origin) {
  LogLevels result = levels;
  std::size_t begin = 0;
  while (true) {
    std::size_t comma = spec.find(',', begin);
    apply_item(result, spec.substr(begin, comma == std::string_view::npos ? comma : comma - begin), origin, spec);
    if (comma == std::string_view::npos) {
      break;
    }
    begin = comma + 1;
  }
  levels = result;
}

} // namespace acme::log
