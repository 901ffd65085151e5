#include "sim/model/error.hpp"

#include <algorithm>
#include <numeric>

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
    : std::runtime_error(format_located(where, key_path, message))
    , where_(std::move(where))
    , key_path_(std::move(key_path)) {}

namespace {

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
