// Fuzzes the reader of `acme-sim check`: the baseline file (and, on the same text, the summary.json reader
// that flattens a run's metrics). Bad input must end in a ConfigError.
#include <cstdint>

#include "sim/model/error.hpp"
#include "sim/study/metrics_flatten.hpp"
#include "sim/study/regression_check.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = acme::fuzz::as_text(data, size);
  try {
    acme::study::Baseline baseline = acme::study::load_baseline(acme::fuzz::write_input_file(text, ".json"));
    acme::study::compare_with_baseline(baseline, baseline.metrics, baseline.tolerance);
  } catch (const acme::ConfigError&) {
  }
  try {
    acme::study::flatten_json_metrics(std::string(text), "summary.json");
  } catch (const acme::ConfigError&) {
  }
  return 0;
}
