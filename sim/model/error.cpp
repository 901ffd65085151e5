#include "sim/model/error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "sim/model/text_escape.hpp"

namespace acme {

std::string format_located(const Location& where, const std::string& key_path, const std::string& message) {
  std::string out;
  if (!where.file.empty()) {
    out += where.file;
    if (where.line > 0) {
      out += ":" + std::to_string(where.line);
      if (where.column > 0) {
        out += ":" + std::to_string(where.column);
      }
    }
    out += ": ";
  }
  if (!key_path.empty()) {
    out += key_path + ": ";
  }
  return out + message;
}

ConfigError::ConfigError(Location where, std::string key_path, const std::string& message)
    : std::runtime_error(one_line(format_located(where, key_path, message)))
    , where_(std::move(where))
    , key_path_(std::move(key_path)) {}

namespace {

constexpr std::size_t MAX_ECHO_CHARS = 120; ///< a quoted value longer than this is shortened
constexpr std::size_t ECHO_HEAD_CHARS = 80; ///< what is kept of its beginning
constexpr std::size_t ECHO_TAIL_CHARS = 20; ///< and of its end
constexpr std::size_t MAX_MESSAGE_CHARS = 1000;

/// `text` with control characters written as escapes (\n, \t, \xNN): a value read from a file never
/// breaks the message over lines.
std::string escape_controls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      out += "\\x";
      model::append_hex_byte(out, u);
    } else {
      out += c;
    }
  }
  return out;
}

/// Every quoted span longer than MAX_ECHO_CHARS shortened to its head and tail, with its length.
std::string shorten_quoted(const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t open = text.find('"', pos);
    std::size_t close = open == std::string::npos ? std::string::npos : text.find('"', open + 1);
    if (close == std::string::npos) {
      out.append(text, pos, std::string::npos);
      break;
    }
    out.append(text, pos, open + 1 - pos);
    std::size_t length = close - open - 1;
    if (length > MAX_ECHO_CHARS) {
      out += excerpt(std::string_view(text).substr(open + 1, length));
      out += '"';
      pos = close + 1;
      continue;
    }
    out.append(text, open + 1, length + 1);
    pos = close + 1;
  }
  return out;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

} // namespace

std::string number_text(double value) {
  constexpr double EXACT_INTEGERS = 1e15;
  if (value == std::floor(value) && std::fabs(value) < EXACT_INTEGERS) {
    return std::to_string(static_cast<long long>(value)); // "100000", not "1e+05"
  }
  constexpr std::size_t DIGITS = 32;
  char buffer[DIGITS];
  auto [end, ec] = std::to_chars(buffer, buffer + DIGITS, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

std::string excerpt(std::string_view text) {
  if (text.size() <= MAX_ECHO_CHARS) {
    return std::string(text);
  }
  return std::string(text.substr(0, ECHO_HEAD_CHARS)) + "..." +
         std::string(text.substr(text.size() - ECHO_TAIL_CHARS)) + " (" + std::to_string(text.size()) + " characters)";
}

std::string one_line(std::string_view message) {
  std::string out = shorten_quoted(escape_controls(message));
  if (out.size() > MAX_MESSAGE_CHARS) {
    out = out.substr(0, MAX_MESSAGE_CHARS - ECHO_TAIL_CHARS) + "... (" + std::to_string(out.size()) + " characters)";
  }
  return out;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : sep) + items[i];
  }
  return out;
}

} // namespace acme
