#include "host/invoke.h"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "strata/api/signatures.h"

namespace strata::host {
namespace {

template <typename R>
void ToWord(R value, Word* w) {
  if constexpr (std::is_pointer_v<R>) {
    w->p = const_cast<void*>(reinterpret_cast<const void*>(value));
  } else if constexpr (std::is_floating_point_v<R>) {
    w->f = value;
  } else if constexpr (std::is_signed_v<R>) {
    w->i = value;
  } else {
    w->u = value;
  }
}

template <typename R, typename... A, std::size_t... I>
void InvokeWith(R (*fn)(A...), const Word* args, Word* result, std::index_sequence<I...>) {
  if constexpr (std::is_void_v<R>) {
    fn(FromWord<A>(args[I])...);
    (void)result;
  } else {
    ToWord(fn(FromWord<A>(args[I])...), result);
  }
}

template <typename Pfn>
struct Call;
template <typename R, typename... A>
struct Call<R (*)(A...)> {
  static void Run(void* function, const Word* args, Word* result) {
    InvokeWith(reinterpret_cast<R (*)(A...)>(function), args, result, std::index_sequence_for<A...>{});
  }
};

}  // namespace

const Invoker kInvokers[api::kFunctionCount] = {
#define STRATA_FUNCTION(slot, name, ret, params, args) &Call<api::PFN_##name>::Run,
#include "strata/api/function_list.inc"
#undef STRATA_FUNCTION
};

}  // namespace strata::host
