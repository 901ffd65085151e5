#pragma once

#include <chrono>

namespace acme::tools::calibrate {

/// Seconds on the monotonic clock (for differences only).
inline double now_s() {
  using Seconds = std::chrono::duration<double>;
  return std::chrono::duration_cast<Seconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Makes the memory behind `ptr` observable, so the compiler cannot elide writes to a buffer that is
/// then freed unread (the same barrier as Google Benchmark's DoNotOptimize; GCC and Clang).
inline void escape(const void* ptr) {
  asm volatile("" : : "r"(ptr) : "memory");
}

} // namespace acme::tools::calibrate
