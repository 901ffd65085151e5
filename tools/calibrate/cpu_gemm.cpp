#include "tools/calibrate/cpu_gemm.hpp"

#include <algorithm>

namespace acme::tools::calibrate {
namespace {

// Block sizes: a BK x BN panel of B (128 x 256 floats = 128 KiB) stays in L2 while BM rows of A stream
// over it; the innermost loop runs over contiguous columns so the compiler vectorises it.
constexpr std::size_t BLOCK_M = 64;
constexpr std::size_t BLOCK_N = 256;
constexpr std::size_t BLOCK_K = 128;

void block_update(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t i0,
                  std::size_t i1, std::size_t j0, std::size_t j1, std::size_t k0, std::size_t k1) {
  for (std::size_t i = i0; i < i1; ++i) {
    float* c_row = c + i * n;
    for (std::size_t kk = k0; kk < k1; ++kk) {
      const float a_ik = a[i * k + kk];
      const float* b_row = b + kk * n;
      for (std::size_t j = j0; j < j1; ++j) {
        c_row[j] += a_ik * b_row[j];
      }
    }
  }
}

} // namespace

void cpu_gemm(const float* a, const float* b, float* c, std::size_t m, std::size_t n, std::size_t k) {
  std::fill(c, c + m * n, 0.0F);
  for (std::size_t i0 = 0; i0 < m; i0 += BLOCK_M) {
    const std::size_t i1 = std::min(m, i0 + BLOCK_M);
    for (std::size_t k0 = 0; k0 < k; k0 += BLOCK_K) {
      const std::size_t k1 = std::min(k, k0 + BLOCK_K);
      for (std::size_t j0 = 0; j0 < n; j0 += BLOCK_N) {
        block_update(a, b, c, n, k, i0, i1, j0, std::min(n, j0 + BLOCK_N), k0, k1);
      }
    }
  }
}

} // namespace acme::tools::calibrate
