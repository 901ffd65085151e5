// The CPU fallback: host buffers stand in for device memory, a worker thread for the side stream, a
// blocked fp32 GEMM for the device's GEMMs. It exercises every code path of the kernels on any machine;
// its numbers describe the host, not a GPU.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tools/calibrate/backend.hpp"
#include "tools/calibrate/cpu_gemm.hpp"
#include "tools/calibrate/fill_pattern.hpp"
#include "tools/calibrate/timer.hpp"
#include <sys/mman.h>
#include <unistd.h>

namespace acme::tools::calibrate {
namespace {

constexpr std::size_t ALIGN_BYTES = 4096; // page-aligned, like a device allocation
// Pageable copies go through a pinned bounce buffer in chunks, as the CUDA driver stages them (CUDA C++
// Best Practices Guide, "Pinned Memory"); 2 MiB is the chunk size used here (assumption).
constexpr std::size_t STAGING_BYTES = 2u << 20u;
constexpr float GEMM_OPERAND_VALUE = 0.5F;
// Touching with a non-zero byte: the compiler may turn malloc + memset(0) into calloc, which maps zero
// pages lazily and would leave the page faults to the first timed copy.
constexpr int TOUCH_BYTE = 0x5A;

void* aligned_alloc_touched(std::size_t bytes) {
  std::size_t rounded = (std::max<std::size_t>(bytes, 1) + ALIGN_BYTES - 1) / ALIGN_BYTES * ALIGN_BYTES;
  void* ptr = std::aligned_alloc(ALIGN_BYTES, rounded);
  if (ptr == nullptr) {
    throw std::runtime_error("cpu-fallback: cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  }
  std::memset(ptr, TOUCH_BYTE, rounded);
  escape(ptr);
  return ptr;
}

double physical_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

class CpuBackend final : public Backend {
public:
  CpuBackend() : staging_(STAGING_BYTES) {}
  ~CpuBackend() override {
    if (side_.joinable()) {
      side_.join();
    }
  }
  CpuBackend(const CpuBackend&) = delete;
  CpuBackend& operator=(const CpuBackend&) = delete;

  DeviceInfo describe() const override {
    return DeviceInfo{"cpu-fallback",
                      "none (host buffers stand in for device memory)",
                      physical_memory_bytes(),
                      "none",
                      "none",
                      "blocked-gemm (cpu, 1 thread)",
                      "fp32"};
  }

  void* device_alloc(std::size_t bytes) override { return aligned_alloc_touched(bytes); }
  void device_free(void* ptr) override { std::free(ptr); }

  void* host_alloc(std::size_t bytes, HostMemory kind) override {
    void* ptr = aligned_alloc_touched(bytes);
    if (kind == HostMemory::PINNED) {
      // Best effort: RLIMIT_MEMLOCK is often small; a touched buffer already avoids page faults.
      (void)mlock(ptr, bytes);
    }
    return ptr;
  }
  // Locked pages are unlocked when free() unmaps them.
  void host_free(void* ptr, HostMemory /*kind*/) override { std::free(ptr); }

  void device_fill(void* dst, std::size_t bytes, unsigned seed) override { fill_pattern(dst, bytes, seed); }

  void copy_d2h(void* host_dst, const void* device_src, std::size_t bytes, HostMemory kind) override {
    copy(host_dst, device_src, bytes, kind);
  }
  void copy_h2d(void* device_dst, const void* host_src, std::size_t bytes, HostMemory kind) override {
    copy(device_dst, host_src, bytes, kind);
  }

  void start_side_copy_d2h(void* host_dst, const void* device_src, std::size_t bytes) override {
    if (side_.joinable()) {
      throw std::logic_error("cpu-fallback: a side copy is already running");
    }
    side_s_ = 0.0;
    side_ = std::thread([this, host_dst, device_src, bytes] {
      double start = now_s();
      std::memcpy(host_dst, device_src, bytes);
      side_s_ = now_s() - start;
    });
  }
  double finish_side_copy_s() override {
    side_.join();
    return side_s_;
  }

  void prepare_gemm(const GemmShape& shape) override {
    shape_ = shape;
    a_.assign(shape.m * shape.k, GEMM_OPERAND_VALUE);
    b_.assign(shape.k * shape.n, GEMM_OPERAND_VALUE);
    c_.assign(shape.m * shape.n, 0.0F);
  }
  void run_gemms(int count) override {
    for (int i = 0; i < count; ++i) {
      cpu_gemm(a_.data(), b_.data(), c_.data(), shape_.m, shape_.n, shape_.k);
    }
  }

  double start_trial_s(std::size_t alloc_bytes) override {
    double start = now_s();
    std::thread context([] {});
    context.join();
    void* weights = aligned_alloc_touched(alloc_bytes);
    double elapsed = now_s() - start;
    std::free(weights);
    return elapsed;
  }

private:
  void copy(void* dst, const void* src, std::size_t bytes, HostMemory kind) {
    if (kind == HostMemory::PINNED) {
      std::memcpy(dst, src, bytes);
      return;
    }
    auto* out = static_cast<std::byte*>(dst);
    const auto* in = static_cast<const std::byte*>(src);
    for (std::size_t offset = 0; offset < bytes; offset += STAGING_BYTES) {
      std::size_t chunk = std::min(STAGING_BYTES, bytes - offset);
      std::memcpy(staging_.data(), in + offset, chunk);
      std::memcpy(out + offset, staging_.data(), chunk);
    }
  }

  std::vector<std::byte> staging_;
  std::thread side_;
  double side_s_ = 0.0;
  GemmShape shape_;
  std::vector<float> a_;
  std::vector<float> b_;
  std::vector<float> c_;
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

} // namespace acme::tools::calibrate
