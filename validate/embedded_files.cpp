#include "validate/embedded_files.hpp"

#include <string>

#include "sim/model/assert.hpp"

namespace acme::validate {

std::string_view validation_file(std::string_view name) {
  for (const auto& f : embedded_validation_files()) {
    if (f.name == name) {
      return f.text;
    }
  }
  ACME_ASSERT(false, "validate/" + std::string(name) + " is not compiled in (validate/CMakeLists.txt)");
  return {};
}

} // namespace acme::validate
