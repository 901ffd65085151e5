#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <unistd.h>

namespace acme::fuzz {

/// The fuzzer's bytes as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size}; // NOLINT: libFuzzer hands bytes
}

/// A file of this process holding the current input, for readers that take a path. The same path each
/// time (rewritten), in memory when /dev/shm exists.
inline const std::string& write_input_file(std::string_view text, const char* suffix) {
  static const std::string path = std::string(::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/acme-fuzz-" +
                                  std::to_string(::getpid()) + suffix;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f != nullptr) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  return path;
}

} // namespace acme::fuzz
