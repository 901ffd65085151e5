#pragma once

#include <string>

namespace acme::test {

/// Absolute path of a file in the source tree (configs/test/..., data/...).
inline std::string source_path(const std::string& relative) {
  return std::string(ACME_SOURCE_DIR) + "/" + relative;
}

} // namespace acme::test
