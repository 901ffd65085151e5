#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace acme::validate {

/// A small CSV table of the paper (sim/csv reads it): header names and rows of fields.
class CsvTable {
public:
  explicit CsvTable(std::string_view name);
  /// The row whose column `key` equals `value` (rows where every pair matches).
  const std::vector<std::string>& row(const std::vector<std::pair<std::string, std::string>>& match) const;
  double number(const std::vector<std::string>& row, const std::string& column) const;
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

private:
  std::size_t column(const std::string& name) const;

  std::string name_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

/// (x, y) points of one of the paper's CDF files (y in percent).
std::vector<std::pair<double, double>> paper_curve(std::string_view name);

} // namespace acme::validate
