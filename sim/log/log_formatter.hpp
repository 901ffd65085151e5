#pragma once

#include <functional>
#include <memory>

namespace spdlog {
class formatter;
} // namespace spdlog

namespace acme::log {

/// The formatter every acme logger uses: "[<simulated s>] [<logger>] [<level>] text", where the
/// simulated time is clock() with six decimals, or "-" when `clock` is empty. Exposed for tests.
std::unique_ptr<spdlog::formatter> make_formatter(std::function<double()> clock);

} // namespace acme::log
