#include "workloads/synthetic/fitted_params.hpp"

#include <charconv>
#include <sstream>

#include "sim/model/assert.hpp"

namespace acme::workloads::synthetic {

FittedParams::FittedParams(std::string_view text, std::string name) : name_(std::move(name)) {
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    std::vector<std::string> values;
    for (std::string value; fields >> value;) {
      values.push_back(std::move(value));
    }
    records_[key] = std::move(values);
  }
}

const std::vector<std::string>& FittedParams::words(const std::string& key) const {
  auto it = records_.find(key);
  ACME_ASSERT(it != records_.end(), name_ + " has no record \"" + key + "\" (rerun tools/fit_acme_workload.py)");
  return it->second;
}

std::vector<double> FittedParams::numbers(const std::string& key) const {
  std::vector<double> out;
  for (const auto& word : words(key)) {
    double value = 0.0;
    auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
    ACME_ASSERT(ec == std::errc() && end == word.data() + word.size(),
                name_ + ": record \"" + key + "\" holds \"" + word + "\", not a number");
    out.push_back(value);
  }
  return out;
}

double FittedParams::number(const std::string& key) const {
  auto values = numbers(key);
  ACME_ASSERT(values.size() == 1, name_ + ": record \"" + key + "\" should hold one number");
  return values[0];
}

} // namespace acme::workloads::synthetic
