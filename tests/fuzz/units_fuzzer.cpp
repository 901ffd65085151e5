// Fuzzes the unit parsers and the date-time parser: the first byte picks the parser, the rest is the text.
// A value they accept must be finite and within its bound (sim/model/limits.hpp); a text they refuse must
// come with a reason.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sim/config/units.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/limits.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {

void require(bool condition) {
  if (!condition) {
    std::abort(); // a broken promise of the parser: libFuzzer reports the input
  }
}

void check_quantity(const acme::config::ParsedQuantity& q, double max) {
  require(q.error.empty() ? std::isfinite(q.value) && std::fabs(q.value) <= max : q.value == 0.0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  std::string_view text = acme::fuzz::as_text(data + 1, size - 1);
  namespace limits = acme::model::limits;
  constexpr int PARSERS = 6;
  switch (data[0] % PARSERS) {
  case 0:
    check_quantity(acme::config::parse_bytes(text), limits::MAX_BYTES);
    break;
  case 1:
    check_quantity(acme::config::parse_bandwidth_Bps(text), limits::MAX_BANDWIDTH_BPS);
    break;
  case 2:
    check_quantity(acme::config::parse_duration_s(text), limits::MAX_DURATION_S);
    break;
  case 3:
    check_quantity(acme::config::parse_power_W(text), limits::MAX_POWER_W);
    break;
  case 4:
    check_quantity(acme::config::parse_utc_offset_s(text), limits::MAX_UTC_OFFSET_S);
    break;
  default: {
    std::string why;
    auto t = acme::model::parse_datetime(text, 0.0, &why);
    require(t ? std::isfinite(*t) && why.empty() : !why.empty());
    if (t) {
      // Within the years the parser accepts (plus a day for the offset).
      constexpr double DAY_S = 86400.0;
      require(*t > -DAY_S && *t < 7.3e9);
    }
  }
  }
  return 0;
}
