#include "workloads/eval/dataset_catalogue.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "sim/model/error.hpp"

namespace acme::workloads::eval {
namespace {

enum Column : std::size_t { NAME, CATEGORY, FORM, SAMPLES, PREPROCESS, INFERENCE, METRIC, COLUMN_COUNT };
constexpr std::array<const char*, COLUMN_COUNT> COLUMN_NAMES = {"name",         "category",    "form",    "samples",
                                                                "preprocess_s", "inference_s", "metric_s"};
constexpr std::array<bool, COLUMN_COUNT> REQUIRED = {true, false, false, true, true, true, true};

struct Cursor {
  const std::string& file;
  int line = 0;
  [[noreturn]] void fail(const std::string& what) const { throw ConfigError(Location{file, line, 0}, "", what); }
};

std::vector<std::string> split_fields(std::string_view line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = line.find(',', start);
    std::string field(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    field.erase(0, field.find_first_not_of(" \t"));
    field.erase(field.find_last_not_of(" \t") + 1);
    out.push_back(std::move(field));
    if (comma == std::string_view::npos) {
      return out;
    }
    start = comma + 1;
  }
}

std::vector<std::string> all_columns() {
  return {COLUMN_NAMES.begin(), COLUMN_NAMES.end()};
}

/// Position of each column in the file's header (nullopt: optional column absent).
std::array<std::optional<std::size_t>, COLUMN_COUNT> read_header(const std::vector<std::string>& fields,
                                                                 const Cursor& at) {
  std::array<std::optional<std::size_t>, COLUMN_COUNT> where;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    auto it = std::find(COLUMN_NAMES.begin(), COLUMN_NAMES.end(), fields[i]);
    if (it == COLUMN_NAMES.end()) {
      std::string msg = "unknown column \"" + fields[i] + "\"; expected columns among: " + join(all_columns());
      if (auto hint = did_you_mean(fields[i], all_columns()); !hint.empty()) {
        msg += " (did you mean \"" + hint + "\"?)";
      }
      at.fail(msg);
    }
    auto column = static_cast<std::size_t>(it - COLUMN_NAMES.begin());
    if (where[column]) {
      at.fail("column \"" + fields[i] + "\" appears twice; expected each column once");
    }
    where[column] = i;
  }
  for (std::size_t c = 0; c < COLUMN_COUNT; ++c) {
    if (REQUIRED[c] && !where[c]) {
      at.fail(
          std::string("missing column \"") + COLUMN_NAMES[c] +
          "\"; expected a header with name, samples, preprocess_s, inference_s, metric_s (category, form optional)");
    }
  }
  return where;
}

double seconds_field(const std::string& text, Column column, const Cursor& at) {
  double value = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0.0) {
    at.fail(std::string("column \"") + COLUMN_NAMES[column] + "\": expected seconds >= 0, got \"" + text + "\"");
  }
  return value;
}

std::uint32_t samples_field(const std::string& text, const Cursor& at) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 ||
      value > std::numeric_limits<std::uint32_t>::max()) {
    at.fail("column \"samples\": expected a positive integer, got \"" + text + "\"");
  }
  return static_cast<std::uint32_t>(value);
}

bool valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_' || ch == '-' || ch == '.';
  });
}

policies::EvalDataset read_row(const std::vector<std::string>& fields,
                               const std::array<std::optional<std::size_t>, COLUMN_COUNT>& where, const Cursor& at) {
  auto field = [&](Column c) -> const std::string& { return fields[*where[c]]; };
  policies::EvalDataset d;
  d.name = field(NAME);
  if (!valid_name(d.name)) {
    at.fail("column \"name\": expected a dataset name of letters, digits, '_', '-' or '.', got \"" + d.name + "\"");
  }
  d.category = where[CATEGORY] ? field(CATEGORY) : "";
  d.samples = samples_field(field(SAMPLES), at);
  d.preprocess_s = seconds_field(field(PREPROCESS), PREPROCESS, at);
  d.inference_s = seconds_field(field(INFERENCE), INFERENCE, at);
  d.metric_s = seconds_field(field(METRIC), METRIC, at);
  return d;
}

} // namespace

std::vector<policies::EvalDataset> parse_catalogue(std::string_view text, const std::string& file_name) {
  Cursor at{file_name, 0};
  std::optional<std::array<std::optional<std::size_t>, COLUMN_COUNT>> header;
  std::size_t columns = 0;
  std::vector<policies::EvalDataset> out;
  std::map<std::string, int> first_line;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    ++at.line;
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    if (line.find_first_not_of(" \t") == std::string::npos || line.front() == '#') {
      continue;
    }
    std::vector<std::string> fields = split_fields(line);
    if (!header) {
      header = read_header(fields, at);
      columns = fields.size();
      continue;
    }
    if (fields.size() != columns) {
      at.fail("expected " + std::to_string(columns) + " fields as in the header, got " + std::to_string(fields.size()));
    }
    policies::EvalDataset d = read_row(fields, *header, at);
    if (auto [it, fresh] = first_line.try_emplace(d.name, at.line); !fresh) {
      at.fail("column \"name\": dataset \"" + d.name + "\" is listed twice (first on line " +
              std::to_string(it->second) + "); expected unique names");
    }
    d.index = static_cast<std::uint32_t>(out.size());
    out.push_back(std::move(d));
  }
  if (out.empty()) {
    at.fail(header ? "no datasets; expected one row per dataset after the header"
                   : "empty catalogue; expected a header such as name,samples,preprocess_s,inference_s,metric_s");
  }
  return out;
}

std::vector<policies::EvalDataset> load_catalogue(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw ConfigError(Location{path, 0, 0}, "", "cannot open the dataset catalogue; expected a CSV file");
  }
  std::stringstream text;
  text << in.rdbuf();
  return parse_catalogue(text.str(), path);
}

std::vector<policies::EvalDataset> builtin_catalogue() {
  return parse_catalogue(builtin_catalogue_text(), BUILTIN_CATALOGUE_NAME);
}

std::vector<policies::EvalDataset> catalogue_from(const config::Config& config, const config::Node& node) {
  if (!node.is_defined() || node.as_string() == "builtin") {
    return builtin_catalogue();
  }
  return load_catalogue(config.resolve_path(node.as_string()));
}

std::vector<policies::EvalDataset> select_datasets(const config::Config& config, const config::Node& node,
                                                   const std::vector<policies::EvalDataset>& catalogue) {
  if (!node.is_defined()) {
    return catalogue;
  }
  if (node.is_scalar()) {
    std::string text = node.as_string();
    return text == "all" ? catalogue : load_catalogue(config.resolve_path(text));
  }
  if (!node.is_sequence() || node.size() == 0) {
    node.fail("expected \"all\", a catalogue file or a non-empty list of dataset names");
  }
  std::vector<std::string> names;
  for (const auto& d : catalogue) {
    names.push_back(d.name);
  }
  std::vector<policies::EvalDataset> out;
  for (std::size_t i = 0; i < node.size(); ++i) {
    config::Node item = node.at(i);
    std::string name = item.as_string();
    auto it = std::find_if(catalogue.begin(), catalogue.end(), [&](const auto& d) { return d.name == name; });
    if (it == catalogue.end()) {
      std::string msg = "unknown dataset \"" + name + "\"; expected a dataset of the catalogue";
      if (auto hint = did_you_mean(name, names); !hint.empty()) {
        msg += " (did you mean \"" + hint + "\"?)";
      }
      item.fail(msg);
    }
    out.push_back(*it);
  }
  return out;
}

} // namespace acme::workloads::eval
