#include "validate/paper_data.hpp"

#include <charconv>
#include <sstream>

#include "sim/model/assert.hpp"

namespace acme::validate {
namespace {

std::string_view file_text(std::string_view name) {
  for (const auto& f : embedded_paper_files()) {
    if (f.name == name) {
      return f.text;
    }
  }
  ACME_ASSERT(false, "data/acme/" + std::string(name) + " is not compiled in (validate/CMakeLists.txt)");
  return {};
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  out.push_back(field);
  return out;
}

} // namespace

CsvTable::CsvTable(std::string_view name) : name_(name) {
  std::istringstream lines{std::string(file_text(name))};
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) {
      continue;
    }
    if (header_.empty()) {
      header_ = split(line);
    } else {
      rows_.push_back(split(line));
    }
  }
}

std::size_t CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] == name) {
      return i;
    }
  }
  ACME_ASSERT(false, name_ + " has no column \"" + name + "\"");
  return 0;
}

const std::vector<std::string>& CsvTable::row(const std::vector<std::pair<std::string, std::string>>& match) const {
  for (const auto& r : rows_) {
    bool all = true;
    for (const auto& [key, value] : match) {
      all = all && r.at(column(key)) == value;
    }
    if (all) {
      return r;
    }
  }
  ACME_ASSERT(false, name_ + " has no row for " + (match.empty() ? "" : match[0].second));
  return rows_.front();
}

double CsvTable::number(const std::vector<std::string>& row, const std::string& name) const {
  const std::string& text = row.at(column(name));
  double value = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  ACME_ASSERT(ec == std::errc() && end == text.data() + text.size(), name_ + ": \"" + text + "\" is not a number");
  return value;
}

std::vector<std::pair<double, double>> paper_curve(std::string_view name) {
  CsvTable table(name);
  std::vector<std::pair<double, double>> out;
  for (const auto& r : table.rows()) {
    out.emplace_back(table.number(r, "x"), table.number(r, "y"));
  }
  return out;
}

} // namespace acme::validate
