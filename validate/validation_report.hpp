#pragma once

#include <cstdio>
#include <string>

#include "validate/reference_values.hpp"

namespace acme::validate {

/// The report of one subject on stdout: a header, free lines, one line per check
/// ("what  simulated X  reference Y  error  (tolerance)  PASS|FAIL") and a closing verdict.
class ValidationReport {
public:
  explicit ValidationReport(std::string subject);
  template <class... A>
  void line(const char* format, A... args) {
    std::printf(format, args...);
    std::printf("\n");
  }
  /// Passes when |simulated - reference| <= rel_tolerance x |reference|.
  bool check(const std::string& what, double simulated, double reference, double rel_tolerance);
  /// The same against a reference number (its value and relative tolerance).
  bool check(const std::string& what, double simulated, const ReferenceValue& reference);
  /// Passes when low <= value <= high.
  bool check_range(const std::string& what, double value, double low, double high);
  /// The same against a reference range (its low and high).
  bool check_range(const std::string& what, double value, const ReferenceValue& reference);
  /// Prints the verdict; returns the exit code (0 pass, 1 a check failed).
  int finish(bool ok);

private:
  std::string subject_;
  int failed_ = 0;
};

} // namespace acme::validate
