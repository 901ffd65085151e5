#include "sim/study/text_format.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace acme::study {

std::string format_number(double value) {
  if (!std::isfinite(value)) {
    return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  }
  if (value == 0.0) {
    return "0"; // also for -0.0, so the sign of a zero never changes the bytes
  }
  constexpr std::size_t BUFFER = 32; // a shortest double is at most 24 characters
  std::array<char, BUFFER> buffer{};
  auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return ec == std::errc() ? std::string(buffer.data(), end) : std::string("nan");
}

std::string tail_lines(std::string_view text, std::size_t max_lines, std::size_t max_bytes) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  std::size_t begin = 0;
  std::size_t search_end = text.size();
  for (std::size_t lines = 0; lines < max_lines && search_end > 0; ++lines) {
    auto newline = text.rfind('\n', search_end - 1);
    if (newline == std::string_view::npos) {
      begin = 0;
      break;
    }
    begin = newline + 1;
    search_end = newline;
  }
  std::string_view tail = text.substr(begin);
  if (tail.size() > max_bytes) {
    tail = tail.substr(tail.size() - max_bytes);
  }
  return std::string(tail);
}

bool read_text_file(const std::string& path, std::string& text) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return false; // missing, or a folder (which std::ifstream would open and read as empty)
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return !in.bad();
}

} // namespace acme::study
