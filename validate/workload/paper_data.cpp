#include "validate/workload/paper_data.hpp"

#include "sim/csv/csv_reader.hpp"
#include "sim/model/assert.hpp"
#include "validate/embedded_files.hpp"

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

} // namespace

CsvTable::CsvTable(std::string_view name) : name_(name) {
  csv::CsvReader in(csv::LineReader::from_text(file_text(name), name_));
  header_ = in.header().names();
  while (in.next()) {
    const auto& fields = in.record().fields();
    rows_.emplace_back(fields.begin(), fields.end());
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
  auto value = csv::parse_number<double>(text);
  ACME_ASSERT(value.has_value(), name_ + ": \"" + text + "\" is not a number");
  return *value;
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
