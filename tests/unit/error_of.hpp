#pragma once

#include <functional>
#include <string>

#include "sim/model/error.hpp"

namespace acme::test {

/// The message of the ConfigError `f` throws, or "no error".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace acme::test
