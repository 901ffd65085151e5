#pragma once
// Only in the CUDA build (acme-calibrate-cuda); kept C++17 like backend.hpp.

#include <memory>
#include <string>

#include "tools/calibrate/backend.hpp"

namespace acme::tools::calibrate {

/// The CUDA backend on device `device`; throws std::runtime_error when no usable GPU is there.
std::unique_ptr<Backend> make_cuda_backend(int device);

/// How the CUDA code was compiled (toolkit version, target architectures, GEMM library); touches no device.
std::string cuda_build_info();

} // namespace acme::tools::calibrate
