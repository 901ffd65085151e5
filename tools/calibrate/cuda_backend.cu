// The CUDA backend: device memory, pinned host memory (cudaMallocHost), a main and a side stream, and
// GEMMs in bf16 through cuBLAS (ACME_CALIBRATE_CUBLAS) or in fp32 through a plain tiled kernel.
// Compiled by nvcc as C++17.
#include "tools/calibrate/cuda_backend.hpp"
#include "tools/calibrate/fill_pattern.hpp"
#include "tools/calibrate/timer.hpp"

#include <cuda_runtime.h>
#if defined(ACME_CALIBRATE_CUBLAS)
#include <cublas_v2.h>
#include <cuda_bf16.h>
#endif

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

namespace acme::tools::calibrate {
namespace {

constexpr int FILL_THREADS = 256;
constexpr int MAX_FILL_BLOCKS = 4096;
constexpr std::size_t HOST_ALIGN_BYTES = 4096;
constexpr int TOUCH_BYTE = 0x5A;
constexpr int OPERAND_LEVELS = 2001; // GEMM operands take values in [-1, 1] in steps of 0.001
constexpr float OPERAND_SCALE = 1000.0F;
constexpr double MS_PER_S = 1000.0;
constexpr int VERSION_MAJOR_DIV = 1000; // CUDA versions are encoded as 1000 * major + 10 * minor
constexpr int VERSION_MINOR_DIV = 10;
constexpr int ARCH_DIV = 10; // __CUDA_ARCH_LIST__ gives 800 for sm_80

void cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
  }
}
#define ACME_CUDA(call) cuda_check((call), #call)

#if defined(ACME_CALIBRATE_CUBLAS)
using Element = __nv_bfloat16;
void cublas_check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cuBLAS: ") + what + ": status " + std::to_string(static_cast<int>(status)));
  }
}
#define ACME_CUBLAS(call) cublas_check((call), #call)
__device__ Element to_element(float v) {
  return __float2bfloat16(v);
}
#else
using Element = float;
__device__ Element to_element(float v) {
  return v;
}
#endif

std::string version_text(int encoded) {
  return std::to_string(encoded / VERSION_MAJOR_DIV) + "." +
         std::to_string((encoded % VERSION_MAJOR_DIV) / VERSION_MINOR_DIV);
}

__global__ void fill_words(std::uint64_t* words, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    words[i] = pattern_word(seed, i);
  }
}

__global__ void fill_operand(Element* values, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    auto level = static_cast<int>(pattern_word(seed, i) % OPERAND_LEVELS) - OPERAND_LEVELS / 2;
    values[i] = to_element(static_cast<float>(level) / OPERAND_SCALE);
  }
}

#if !defined(ACME_CALIBRATE_CUBLAS)
constexpr int TILE = 16; // the fallback GEMM's shared-memory tile

/// C[m x n] = A[m x k] * B[k x n], row-major, one 16 x 16 tile of C per block (used without cuBLAS).
__global__ void tiled_gemm(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0F;
  for (int t = 0; t < k; t += TILE) {
    a_tile[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? a[row * k + t + threadIdx.x] : 0.0F;
    b_tile[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < k ? b[(t + threadIdx.y) * n + col] : 0.0F;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) {
      sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];
    }
    __syncthreads();
  }
  if (row < m && col < n) {
    c[row * n + col] = sum;
  }
}
#endif

int fill_blocks(std::size_t count) {
  std::size_t blocks = (count + FILL_THREADS - 1) / FILL_THREADS;
  return static_cast<int>(blocks < MAX_FILL_BLOCKS ? (blocks == 0 ? 1 : blocks) : MAX_FILL_BLOCKS);
}

class CudaBackend final : public Backend {
public:
  explicit CudaBackend(int device) : device_(device) {
    ACME_CUDA(cudaSetDevice(device_));
    create_context_objects();
  }
  ~CudaBackend() override { destroy_context_objects(); }
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  DeviceInfo describe() const override {
    cudaDeviceProp prop{};
    ACME_CUDA(cudaGetDeviceProperties(&prop, device_));
    int driver = 0;
    int runtime = 0;
    ACME_CUDA(cudaDriverGetVersion(&driver));
    ACME_CUDA(cudaRuntimeGetVersion(&runtime));
    return DeviceInfo{"cuda",
                      prop.name,
                      static_cast<double>(prop.totalGlobalMem),
                      version_text(driver),
                      version_text(runtime),
                      gemm_library(),
                      GEMM_DTYPE};
  }

  void* device_alloc(std::size_t bytes) override {
    void* ptr = nullptr;
    ACME_CUDA(cudaMalloc(&ptr, bytes));
    ++live_allocations_;
    return ptr;
  }
  void device_free(void* ptr) override {
    cudaFree(ptr);
    --live_allocations_;
  }

  void* host_alloc(std::size_t bytes, HostMemory kind) override {
    void* ptr = nullptr;
    if (kind == HostMemory::PINNED) {
      ACME_CUDA(cudaMallocHost(&ptr, bytes));
      ++live_allocations_;
    } else {
      std::size_t rounded = (bytes + HOST_ALIGN_BYTES - 1) / HOST_ALIGN_BYTES * HOST_ALIGN_BYTES;
      ptr = std::aligned_alloc(HOST_ALIGN_BYTES, rounded == 0 ? HOST_ALIGN_BYTES : rounded);
      if (ptr == nullptr) {
        throw std::runtime_error("cannot allocate " + std::to_string(bytes) + " bytes of pageable host memory");
      }
      std::memset(ptr, TOUCH_BYTE, rounded);
      escape(ptr);
    }
    return ptr;
  }
  void host_free(void* ptr, HostMemory kind) override {
    if (kind == HostMemory::PINNED) {
      cudaFreeHost(ptr);
      --live_allocations_;
    } else {
      std::free(ptr);
    }
  }

  void device_fill(void* dst, std::size_t bytes, unsigned seed) override {
    const std::size_t words = bytes / sizeof(std::uint64_t);
    fill_words<<<fill_blocks(words), FILL_THREADS, 0, main_>>>(static_cast<std::uint64_t*>(dst), words, seed);
    ACME_CUDA(cudaGetLastError());
    const std::size_t tail = bytes - words * sizeof(std::uint64_t);
    if (tail > 0) {
      std::uint64_t last = pattern_word(seed, words);
      ACME_CUDA(
          cudaMemcpyAsync(static_cast<char*>(dst) + words * sizeof(last), &last, tail, cudaMemcpyHostToDevice, main_));
    }
    ACME_CUDA(cudaStreamSynchronize(main_));
  }

  void copy_d2h(void* host_dst, const void* device_src, std::size_t bytes, HostMemory /*kind*/) override {
    ACME_CUDA(cudaMemcpyAsync(host_dst, device_src, bytes, cudaMemcpyDeviceToHost, main_));
    ACME_CUDA(cudaStreamSynchronize(main_));
  }
  void copy_h2d(void* device_dst, const void* host_src, std::size_t bytes, HostMemory /*kind*/) override {
    ACME_CUDA(cudaMemcpyAsync(device_dst, host_src, bytes, cudaMemcpyHostToDevice, main_));
    ACME_CUDA(cudaStreamSynchronize(main_));
  }

  void start_side_copy_d2h(void* host_dst, const void* device_src, std::size_t bytes) override {
    ACME_CUDA(cudaEventRecord(side_start_, side_));
    ACME_CUDA(cudaMemcpyAsync(host_dst, device_src, bytes, cudaMemcpyDeviceToHost, side_));
    ACME_CUDA(cudaEventRecord(side_stop_, side_));
  }
  double finish_side_copy_s() override {
    ACME_CUDA(cudaEventSynchronize(side_stop_));
    float ms = 0.0F;
    ACME_CUDA(cudaEventElapsedTime(&ms, side_start_, side_stop_));
    return ms / MS_PER_S;
  }

  void prepare_gemm(const GemmShape& shape) override {
    free_operands();
    shape_ = shape;
    const std::size_t counts[3] = {shape.m * shape.k, shape.k * shape.n, shape.m * shape.n};
    Element** operands[3] = {&a_, &b_, &c_};
    for (int i = 0; i < 3; ++i) {
      ACME_CUDA(cudaMalloc(reinterpret_cast<void**>(operands[i]), counts[i] * sizeof(Element)));
      fill_operand<<<fill_blocks(counts[i]), FILL_THREADS, 0, main_>>>(*operands[i], counts[i], i + 1);
      ACME_CUDA(cudaGetLastError());
    }
    ACME_CUDA(cudaStreamSynchronize(main_));
  }

  void run_gemms(int count) override {
    for (int i = 0; i < count; ++i) {
      launch_gemm();
    }
    ACME_CUDA(cudaStreamSynchronize(main_));
  }

  double start_trial_s(std::size_t alloc_bytes) override {
    if (live_allocations_ != 0) {
      throw std::logic_error("start_trial_s resets the device: free every device and pinned buffer first");
    }
    const GemmShape shape = shape_;
    free_operands();
    destroy_context_objects();
    ACME_CUDA(cudaDeviceReset());
    const double start = now_s();
    ACME_CUDA(cudaSetDevice(device_));
    ACME_CUDA(cudaFree(nullptr)); // creates the context
    create_context_objects();
    void* weights = nullptr;
    ACME_CUDA(cudaMalloc(&weights, alloc_bytes));
    ACME_CUDA(cudaDeviceSynchronize());
    const double elapsed = now_s() - start;
    ACME_CUDA(cudaFree(weights));
    if (shape.m > 0) {
      prepare_gemm(shape);
    }
    return elapsed;
  }

private:
#if defined(ACME_CALIBRATE_CUBLAS)
  static constexpr const char* GEMM_DTYPE = "bf16";
  std::string gemm_library() const {
    int version = 0;
    cublasGetVersion(blas_, &version);
    return "cublas " + std::to_string(version);
  }
  /// Row-major C = A * B is column-major C^T = B^T * A^T: pass B first.
  void launch_gemm() {
    const float alpha = 1.0F;
    const float beta = 0.0F;
    const auto m = static_cast<int>(shape_.m);
    const auto n = static_cast<int>(shape_.n);
    const auto k = static_cast<int>(shape_.k);
    ACME_CUBLAS(cublasGemmEx(blas_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b_, CUDA_R_16BF, n, a_, CUDA_R_16BF, k,
                             &beta, c_, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
#else
  static constexpr const char* GEMM_DTYPE = "fp32";
  std::string gemm_library() const {
    return "tiled-kernel (no cuBLAS)";
  }
  void launch_gemm() {
    dim3 block(TILE, TILE);
    dim3 grid(static_cast<unsigned>((shape_.n + TILE - 1) / TILE), static_cast<unsigned>((shape_.m + TILE - 1) / TILE));
    tiled_gemm<<<grid, block, 0, main_>>>(a_, b_, c_, static_cast<int>(shape_.m), static_cast<int>(shape_.n),
                                          static_cast<int>(shape_.k));
    ACME_CUDA(cudaGetLastError());
  }
#endif

  void create_context_objects() {
    ACME_CUDA(cudaStreamCreateWithFlags(&main_, cudaStreamNonBlocking));
    ACME_CUDA(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
    ACME_CUDA(cudaEventCreate(&side_start_));
    ACME_CUDA(cudaEventCreate(&side_stop_));
#if defined(ACME_CALIBRATE_CUBLAS)
    ACME_CUBLAS(cublasCreate(&blas_));
    ACME_CUBLAS(cublasSetStream(blas_, main_));
#endif
  }

  void destroy_context_objects() {
    free_operands();
#if defined(ACME_CALIBRATE_CUBLAS)
    if (blas_ != nullptr) {
      cublasDestroy(blas_);
      blas_ = nullptr;
    }
#endif
    cudaEventDestroy(side_start_);
    cudaEventDestroy(side_stop_);
    cudaStreamDestroy(side_);
    cudaStreamDestroy(main_);
  }

  void free_operands() {
    for (Element** operand : {&a_, &b_, &c_}) {
      if (*operand != nullptr) {
        cudaFree(*operand);
        *operand = nullptr;
      }
    }
    shape_ = GemmShape{};
  }

  int device_;
  int live_allocations_ = 0;
  cudaStream_t main_ = nullptr;
  cudaStream_t side_ = nullptr;
  cudaEvent_t side_start_ = nullptr;
  cudaEvent_t side_stop_ = nullptr;
#if defined(ACME_CALIBRATE_CUBLAS)
  cublasHandle_t blas_ = nullptr;
#endif
  GemmShape shape_;
  Element* a_ = nullptr;
  Element* b_ = nullptr;
  Element* c_ = nullptr;
};

std::string architectures() {
#if defined(__CUDA_ARCH_LIST__)
#define ACME_STRINGIFY_INNER(...) #__VA_ARGS__
#define ACME_STRINGIFY(...) ACME_STRINGIFY_INNER(__VA_ARGS__)
  std::stringstream list(ACME_STRINGIFY(__CUDA_ARCH_LIST__));
  std::string item;
  std::string out;
  while (std::getline(list, item, ',')) {
    out += (out.empty() ? "sm_" : ", sm_") + std::to_string(std::stoi(item) / ARCH_DIV);
  }
  return out;
#else
  return "unknown (nvcc older than 11.5 does not define __CUDA_ARCH_LIST__)";
#endif
}

} // namespace

std::unique_ptr<Backend> make_cuda_backend(int device) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || device >= count) {
    throw std::runtime_error(
        "no CUDA device " + std::to_string(device) + " (" +
        (status != cudaSuccess ? std::string(cudaGetErrorString(status)) : std::to_string(count) + " device(s) found") +
        "); run with --cpu for the CPU fallback");
  }
  return std::make_unique<CudaBackend>(device);
}

std::string cuda_build_info() {
  std::string gemm =
#if defined(ACME_CALIBRATE_CUBLAS)
      "cuBLAS (bf16 inputs, fp32 accumulation)";
#else
      "tiled kernel (fp32; cuBLAS was not found)";
#endif
  return "backend: cuda (and cpu-fallback with --cpu)\nCUDA toolkit: " + version_text(CUDART_VERSION) +
         "\narchitectures: " + architectures() + "\ngemm: " + gemm;
}

} // namespace acme::tools::calibrate
