#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/model/text_escape.hpp"

namespace acme::metrics {

// Allocation-free appenders for large CSV outputs (a million rows): std::to_chars gives the shortest
// representation that reads back to the same double, deterministically.

inline void append(std::string& out, std::string_view text) {
  out.append(text);
}

inline void append(std::string& out, std::uint64_t value) {
  constexpr std::size_t DIGITS = 24;
  char buffer[DIGITS];
  auto [end, ec] = std::to_chars(buffer, buffer + DIGITS, value);
  out.append(buffer, end);
}

inline void append(std::string& out, double value) {
  constexpr std::size_t DIGITS = 32;
  char buffer[DIGITS];
  auto [end, ec] = std::to_chars(buffer, buffer + DIGITS, value);
  out.append(buffer, end);
}

/// Appends `value` then a comma.
template <class T>
void cell(std::string& out, T value) {
  append(out, value);
  out += ',';
}

/// Appends `text` as one CSV cell (quoted when it holds a comma, quote or line break) then a comma: names
/// come from users.
inline void cell(std::string& out, std::string_view text) {
  model::append_csv_field(out, text);
  out += ',';
}

} // namespace acme::metrics
