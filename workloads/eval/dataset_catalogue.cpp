#include "workloads/eval/dataset_catalogue.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>

#include "sim/csv/csv_reader.hpp"
#include "sim/model/error.hpp"

namespace acme::workloads::eval {
namespace {

enum Column : std::size_t { NAME, CATEGORY, FORM, SAMPLES, PREPROCESS, INFERENCE, METRIC, COLUMN_COUNT };
constexpr std::array<const char*, COLUMN_COUNT> COLUMN_NAMES = {"name",         "category",    "form",    "samples",
                                                                "preprocess_s", "inference_s", "metric_s"};
constexpr std::array<bool, COLUMN_COUNT> REQUIRED = {true, false, false, true, true, true, true};

/// Catalogues are CSV with '#' comment lines and blanks around fields allowed.
constexpr csv::CsvOptions CATALOGUE_CSV{',', true, '#'};

std::vector<std::string> all_columns() {
  return {COLUMN_NAMES.begin(), COLUMN_NAMES.end()};
}

using ColumnIndex = std::array<std::optional<std::size_t>, COLUMN_COUNT>;

/// Position of each column in the file's header (nullopt: optional column absent).
ColumnIndex read_header(const csv::CsvReader& in) {
  const std::vector<std::string>& fields = in.header().names();
  ColumnIndex where;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    auto it = std::find(COLUMN_NAMES.begin(), COLUMN_NAMES.end(), fields[i]);
    if (it == COLUMN_NAMES.end()) {
      std::string msg = "unknown column \"" + fields[i] + "\"; expected columns among: " + join(all_columns());
      if (auto hint = did_you_mean(fields[i], all_columns()); !hint.empty()) {
        msg += " (did you mean \"" + hint + "\"?)";
      }
      in.fail(msg);
    }
    auto column = static_cast<std::size_t>(it - COLUMN_NAMES.begin());
    if (where[column]) {
      in.fail("column \"" + fields[i] + "\" appears twice; expected each column once");
    }
    where[column] = i;
  }
  for (std::size_t c = 0; c < COLUMN_COUNT; ++c) {
    if (REQUIRED[c]) {
      in.require(COLUMN_NAMES[c],
                 "expected a header with name, samples, preprocess_s, inference_s, metric_s (category, form optional)");
    }
  }
  return where;
}

double seconds_field(const csv::CsvReader& in, const ColumnIndex& where, Column column) {
  std::string_view text = in.field(*where[column]);
  auto value = csv::parse_number<double>(text);
  if (!value || !std::isfinite(*value) || *value < 0.0) {
    in.fail_column(*where[column], "expected seconds >= 0, got \"" + std::string(text) + "\"");
  }
  return *value;
}

std::uint32_t samples_field(const csv::CsvReader& in, const ColumnIndex& where) {
  std::string_view text = in.field(*where[SAMPLES]);
  auto value = csv::parse_number<std::uint64_t>(text);
  if (!value || *value == 0 || *value > std::numeric_limits<std::uint32_t>::max()) {
    in.fail_column(*where[SAMPLES], "expected a positive integer, got \"" + std::string(text) + "\"");
  }
  return static_cast<std::uint32_t>(*value);
}

bool valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_' || ch == '-' || ch == '.';
  });
}

policies::EvalDataset read_row(const csv::CsvReader& in, const ColumnIndex& where) {
  policies::EvalDataset d;
  d.name = std::string(in.field(*where[NAME]));
  if (!valid_name(d.name)) {
    in.fail_column(*where[NAME], "expected a dataset name of letters, digits, '_', '-' or '.', got \"" + d.name + "\"");
  }
  d.category = where[CATEGORY] ? std::string(in.field(*where[CATEGORY])) : "";
  d.samples = samples_field(in, where);
  d.preprocess_s = seconds_field(in, where, PREPROCESS);
  d.inference_s = seconds_field(in, where, INFERENCE);
  d.metric_s = seconds_field(in, where, METRIC);
  return d;
}

std::vector<policies::EvalDataset> parse(csv::CsvReader in) {
  if (!in.has_header()) {
    in.fail_at(in.lines_read(),
               "empty catalogue; expected a header such as name,samples,preprocess_s,inference_s,metric_s");
  }
  ColumnIndex where = read_header(in);
  std::vector<policies::EvalDataset> out;
  std::map<std::string, std::size_t> first_line;
  while (in.next()) {
    policies::EvalDataset d = read_row(in, where);
    if (auto [it, fresh] = first_line.try_emplace(d.name, in.line()); !fresh) {
      in.fail_column(*where[NAME], "dataset \"" + d.name + "\" is listed twice (first on line " +
                                       std::to_string(it->second) + "); expected unique names");
    }
    d.index = static_cast<std::uint32_t>(out.size());
    out.push_back(std::move(d));
  }
  if (out.empty()) {
    in.fail_at(in.lines_read(), "no datasets; expected one row per dataset after the header");
  }
  return out;
}

} // namespace

std::vector<policies::EvalDataset> parse_catalogue(std::string_view text, const std::string& file_name) {
  return parse(csv::CsvReader(csv::LineReader::from_text(text, file_name), CATALOGUE_CSV));
}

std::vector<policies::EvalDataset> load_catalogue(const std::string& path) {
  csv::LineReader lines = csv::LineReader::from_file(path);
  if (!lines.is_open()) {
    throw ConfigError(Location{path, 0, 0}, "",
                      "cannot open the dataset catalogue: " + lines.open_problem() + "; expected a CSV file");
  }
  return parse(csv::CsvReader(std::move(lines), CATALOGUE_CSV));
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
