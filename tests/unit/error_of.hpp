#pragma once

#include "acme/model/error.hpp"

#include <functional>
#include <string>

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
