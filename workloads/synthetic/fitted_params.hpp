#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace acme::workloads::synthetic {

/// The fitted parameters compiled into the binary: workloads/synthetic/acme_params.txt, written by
/// tools/fit_acme_workload.py from data/acme/*.csv (paper Table 2, treemap, box plot, CDFs).
std::string_view acme_params_text();

/// Records "KEY VALUE VALUE ..." of a parameter file, one per line ('#' starts a comment line).
/// The file is part of the build, so a missing or malformed record is a bug (InternalError).
class FittedParams {
public:
  FittedParams(std::string_view text, std::string name);

  bool has(const std::string& key) const { return records_.count(key) != 0; }
  const std::vector<std::string>& words(const std::string& key) const;
  std::vector<double> numbers(const std::string& key) const;
  double number(const std::string& key) const;

private:
  std::string name_;
  std::unordered_map<std::string, std::vector<std::string>> records_;
};

} // namespace acme::workloads::synthetic
