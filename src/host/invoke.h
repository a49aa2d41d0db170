#pragma once
// Calls any registry function through a plain pointer with arguments held as
// words, so an executor can run a decoded call without per-function code.

#include <cstdint>
#include <type_traits>

#include "strata/api/functions.h"

namespace strata::host {

union Word {
  uint64_t u;
  int64_t i;
  double f;
  void* p;
};

// A word as the C type `T` of a parameter.
template <typename T>
T FromWord(const Word& w) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(w.p);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(w.f);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(w.i);
  } else {
    return static_cast<T>(w.u);
  }
}

// Converts each word to the parameter's C type, calls `function`, stores the
// result (if any) in *result.
using Invoker = void (*)(void* function, const Word* args, Word* result);
extern const Invoker kInvokers[api::kFunctionCount];

}  // namespace strata::host
