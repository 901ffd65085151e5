#pragma once
// Kept C++17 (no <span>, no concepts): the CUDA backend is compiled by nvcc as C++17, because CMake 3.25
// does not know nvcc 13's C++20 mode.

#include <cstddef>
#include <memory>
#include <string>

namespace acme::tools::calibrate {

/// Host memory kinds of a device-to-host or host-to-device copy.
enum class HostMemory { PAGEABLE, PINNED };

/// C[m x n] = A[m x k] * B[k x n]: one GEMM of the compute loop or of inference.
struct GemmShape {
  std::size_t m = 0;
  std::size_t n = 0;
  std::size_t k = 0;

  double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
};

/// What the backend runs on; versions are "none" where they do not apply.
struct DeviceInfo {
  std::string backend; ///< "cuda" or "cpu-fallback"
  std::string device_name;
  double device_memory_bytes = 0.0;
  std::string driver_version;  ///< e.g. "13.0" or "none"
  std::string runtime_version; ///< CUDA runtime, or "none"
  std::string gemm_library;    ///< "cublas 13.0.0", "tiled-kernel", "blocked-gemm (cpu)"
  std::string gemm_dtype;      ///< "bf16" (cuBLAS) or "fp32"
};

/// The device under calibration. The CUDA backend uses GPU memory, two streams and cuBLAS; the CPU
/// fallback uses host buffers in place of device memory, a worker thread in place of the side stream
/// and a blocked GEMM. Every call is synchronous unless its name says otherwise; failures throw
/// std::runtime_error with the device's own message.
class Backend {
public:
  virtual ~Backend() = default;

  virtual DeviceInfo describe() const = 0;

  /// Device memory (the CPU fallback: a host buffer); contents undefined until device_fill or a copy.
  virtual void* device_alloc(std::size_t bytes) = 0;
  virtual void device_free(void* ptr) = 0;
  /// Host memory of the given kind, touched (so first-use page faults are not timed).
  virtual void* host_alloc(std::size_t bytes, HostMemory kind) = 0;
  virtual void host_free(void* ptr, HostMemory kind) = 0;
  /// Fills device memory with bytes derived from `seed` (so checksums of a round trip mean something).
  virtual void device_fill(void* dst, std::size_t bytes, unsigned seed) = 0;

  /// Synchronous copies on the main stream; they return when the data has arrived.
  virtual void copy_d2h(void* host_dst, const void* device_src, std::size_t bytes, HostMemory kind) = 0;
  virtual void copy_h2d(void* device_dst, const void* host_src, std::size_t bytes, HostMemory kind) = 0;

  /// Starts a device-to-host copy into pinned memory on the side stream and returns at once.
  virtual void start_side_copy_d2h(void* host_dst, const void* device_src, std::size_t bytes) = 0;
  /// Waits for the side copy; returns its own duration in seconds (device-side timing where available).
  virtual double finish_side_copy_s() = 0;

  /// Allocates the operands of `shape` (replacing earlier ones) for run_gemms.
  virtual void prepare_gemm(const GemmShape& shape) = 0;
  /// Runs `count` GEMMs of the prepared shape back to back on the main stream and waits for them.
  virtual void run_gemms(int count) = 0;

  /// The fixed cost of starting an evaluation trial: a fresh device context (CUDA: reset, context
  /// creation, BLAS handle; CPU: a worker thread) plus allocating and touching `alloc_bytes`.
  /// Returns seconds. The backend stays usable afterwards.
  virtual double start_trial_s(std::size_t alloc_bytes) = 0;
};

std::unique_ptr<Backend> make_cpu_backend();

} // namespace acme::tools::calibrate
