#include "validate/validation_report.hpp"

#include <cmath>

namespace acme::validate {

ValidationReport::ValidationReport(std::string subject) : subject_(std::move(subject)) {
  std::printf("== acme-sim validate %s\n", subject_.c_str());
}

bool ValidationReport::check(const std::string& what, double simulated, double reference, double rel_tolerance) {
  double error = reference != 0.0 ? std::fabs(simulated - reference) / std::fabs(reference) : std::fabs(simulated);
  bool ok = error <= rel_tolerance;
  std::printf("%-40s simulated %14.6g  reference %14.6g  error %6.2f%% (tolerance %.2f%%)  %s\n", what.c_str(),
              simulated, reference, 100.0 * error, 100.0 * rel_tolerance, ok ? "PASS" : "FAIL");
  failed_ += ok ? 0 : 1;
  return ok;
}

bool ValidationReport::check(const std::string& what, double simulated, const ReferenceValue& reference) {
  return check(what, simulated, reference.value, reference.tolerance);
}

bool ValidationReport::check_range(const std::string& what, double value, double low, double high) {
  bool ok = value >= low && value <= high;
  std::printf("%-40s %14.6g  expected within [%g, %g]  %s\n", what.c_str(), value, low, high, ok ? "PASS" : "FAIL");
  failed_ += ok ? 0 : 1;
  return ok;
}

bool ValidationReport::check_range(const std::string& what, double value, const ReferenceValue& reference) {
  return check_range(what, value, reference.low, reference.high);
}

int ValidationReport::finish(bool ok) {
  std::printf("== %s: %s (%d check%s failed)\n", subject_.c_str(), ok ? "PASS" : "FAIL", failed_,
              failed_ == 1 ? "" : "s");
  return ok ? 0 : 1;
}

} // namespace acme::validate
