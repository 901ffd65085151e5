#pragma once

#include <cstddef>

namespace acme::tools::calibrate {

/// C = A * B in fp32, row-major (A: m x k, B: k x n, C: m x n), cache-blocked and single-threaded:
/// the CPU fallback's stand-in for a device GEMM.
void cpu_gemm(const float* a, const float* b, float* c, std::size_t m, std::size_t n, std::size_t k);

} // namespace acme::tools::calibrate
