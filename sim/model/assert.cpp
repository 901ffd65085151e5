#include "sim/model/assert.hpp"

namespace acme {

void assertion_failed(const char* condition, const std::string& context, const char* file, int line) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": internal error: " + context +
                      " (violated: " + condition + ")");
}

} // namespace acme
