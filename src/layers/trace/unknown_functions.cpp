#include "layers/trace/unknown_functions.h"

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/log.h"
#include "layers/trace/call_writer.h"
#include "stream/record_format.h"
#include "strata/api/functions.h"

extern "C" {
// The function below each stub, read by the stubs (unknown_function_stubs.S).
__attribute__((visibility("hidden"))) void* strata_unknown_function_next[strata::trace::kMaxUnknownFunctions];
__attribute__((visibility("hidden"))) extern const unsigned char strata_unknown_function_stubs[];
__attribute__((visibility("hidden"))) void strata_record_unknown_call(uint32_t index);
}

namespace strata::trace {
namespace {

std::mutex g_mutex;
std::unordered_map<std::string, uint32_t> g_index_of;
// Names by index: written once before the stub is handed out, never freed.
const char* g_names[kMaxUnknownFunctions];
uint32_t g_count = 0;

}  // namespace

void* WrapUnknownFunction(const char* name, void* next) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_index_of.find(name);
  uint32_t index;
  if (found != g_index_of.end()) {
    index = found->second;
  } else {
    if (g_count == kMaxUnknownFunctions) {
      static bool warned = false;
      if (!warned) {
        warned = true;
        STRATA_WARN("tracing: more than %u functions unknown to Strata's registry were asked for; calls to %s "
                    "and later ones are not recorded",
                    kMaxUnknownFunctions, name);
      }
      return next;
    }
    index = g_count++;
    g_names[index] = strdup(name);
    g_index_of.emplace(name, index);
  }
  // Where the same name resolves to a new function (another context's driver), the newest wins, as in the loader.
  __atomic_store_n(&strata_unknown_function_next[index], next, __ATOMIC_RELEASE);
  return const_cast<unsigned char*>(strata_unknown_function_stubs) + index * STRATA_UNKNOWN_FUNCTION_STUB_BYTES;
}

const char* UnknownFunctionName(uint32_t index) { return index < kMaxUnknownFunctions ? g_names[index] : nullptr; }

}  // namespace strata::trace

// The stubs' recorder: a call entry with the function's runtime index and no
// arguments, before the call (its duration is not measured).
extern "C" void strata_record_unknown_call(uint32_t index) {
  using namespace strata;
  if (!trace::Tracing()) return;
  trace::CallWriter w(static_cast<int>(api::kFunctionCount + index), false, true, stream::kCallUnknownFunction,
                      8 * trace::raw::kWord);
  w.StartCall();
  w.EndCall();
  w.Commit();
}
