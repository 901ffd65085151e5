#pragma once

#include <stdexcept>
#include <string>

namespace acme {

/// Thrown by ACME_ASSERT: a broken invariant is a bug in acme-sim, never the user's input.
class InternalError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

[[noreturn]] void assertion_failed(const char* condition, const std::string& context, const char* file, int line);

} // namespace acme

/// Programmer-error check (STYLE C4). Never used for user input.
#define ACME_ASSERT(cond, context)                                                                                     \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      ::acme::assertion_failed(#cond, (context), __FILE__, __LINE__);                                                  \
    }                                                                                                                  \
  } while (false)
