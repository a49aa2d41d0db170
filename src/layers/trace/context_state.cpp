#include "layers/trace/context_state.h"

#include <memory>
#include <mutex>
#include <unordered_map>

namespace strata::trace {
namespace {

std::mutex g_mutex;  // taken at eglMakeCurrent and context destruction only
std::unordered_map<uint64_t, std::unique_ptr<ContextState>> g_contexts;

}  // namespace

int CurrentContextVersion() { return t_locals.context_state ? t_locals.context_state->client_version : 0; }

ContextState& StateOf(uint64_t context) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto& state = g_contexts[context];
  if (!state) {
    state = std::make_unique<ContextState>();
    state->id = g_contexts.size();
    state->handle = context;
  }
  return *state;
}

uint64_t MakeContextCurrent(uint64_t context, int version) {
  if (context == 0) {
    t_locals.context_state = nullptr;
    return 0;
  }
  ContextState& state = StateOf(context);
  state.client_version = version;
  t_locals.context_state = &state;
  return state.id;
}

void ForgetContext(uint64_t context) {
  // Reset rather than free: a handle may be reused for a new context, and a
  // thread may still hold a pointer to the state.
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_contexts.find(context);
  if (it != g_contexts.end()) {
    uint64_t id = it->second->id;
    *it->second = ContextState{};
    it->second->id = id;
    it->second->handle = context;
  }
}

uint64_t ShareGroupRoot(uint64_t context) {
  // Bounded: a chain of contexts each made to share with the one before.
  for (int step = 0; step < 1024; ++step) {
    const uint64_t shares_with = StateOf(context).shares_with;
    if (shares_with == 0 || !StateOf(shares_with).made) break;
    context = shares_with;
  }
  return context;
}

}  // namespace strata::trace
