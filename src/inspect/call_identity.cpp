#include "inspect/call_identity.h"

#include <cstring>
#include <string>
#include <unordered_set>

namespace strata::inspect {
namespace {

using api::ArgKind;

// Linux never maps memory below vm.mmap_min_addr (64 KiB by default): a
// pointer value below it is an offset into a bound buffer (glVertexAttribPointer,
// glDrawElements' indices), one above it an address of the program's memory.
constexpr uint64_t kLowestAddress = 64 * 1024;
constexpr uint64_t kAnAddress = 0x9e3779b97f4a7c15ull;  // the key of every address

uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

uint64_t Combine(uint64_t seed, uint64_t value) { return Mix(seed ^ (value + 0x9e3779b97f4a7c15ull + (seed << 6))); }

// The C types of handle parameters (EGLDisplay, EGLConfig, GLsync, ...), from
// the registry: an array of one of them (eglChooseConfig's configs) holds handles.
bool IsHandleArray(const char* c_type) {
  static const std::unordered_set<std::string> handle_types = [] {
    std::unordered_set<std::string> types;
    for (const api::FunctionInfo& info : api::kFunctions) {
      for (int i = 0; i < info.param_count; ++i) {
        if (info.params[i].kind == ArgKind::kHandle) types.insert(info.params[i].type);
      }
    }
    return types;
  }();
  std::string base = c_type;
  if (base.rfind("const ", 0) == 0) base.erase(0, 6);
  while (!base.empty() && (base.back() == '*' || base.back() == ' ')) base.pop_back();
  return handle_types.count(base) != 0;
}

}  // namespace

uint64_t HashBytes(std::span<const uint8_t> bytes, uint64_t seed) {
  uint64_t h = Combine(seed, bytes.size());
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    h = (h ^ word) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  if (i < bytes.size()) std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
  return Mix(h ^ tail);
}

uint64_t CallIdentity::Handle(uint64_t value) {
  if (value == 0) return 0;  // EGL_NO_CONTEXT and the like
  return handle_order_.try_emplace(value, handle_order_.size() + 1).first->second;
}

uint64_t CallIdentity::Value(const stream::DecodedValue& v, const char* c_type) {
  uint64_t key = Combine(0, static_cast<uint64_t>(v.kind));
  switch (v.kind) {
    case ArgKind::kInt: return Combine(key, static_cast<uint64_t>(v.i));
    case ArgKind::kFloat:
    case ArgKind::kDouble: {
      uint64_t bits;
      std::memcpy(&bits, &v.f, 8);
      return Combine(key, bits);
    }
    case ArgKind::kHandle: return Combine(key, Handle(v.u));
    case ArgKind::kPointer:
    case ArgKind::kString: break;
    default: return Combine(key, v.u);
  }
  if (!v.has_in && !v.has_out) return Combine(key, v.u >= kLowestAddress ? kAnAddress : v.u);
  key = Combine(key, v.u == 0);
  for (const auto& [present, bytes] : {std::pair{v.has_in, v.in}, std::pair{v.has_out, v.out}}) {
    if (!present) {
      key = Combine(key, 1);
      continue;
    }
    if (c_type && IsHandleArray(c_type) && bytes.size() % sizeof(uint64_t) == 0) {
      for (size_t i = 0; i < bytes.size(); i += sizeof(uint64_t)) {
        uint64_t handle;
        std::memcpy(&handle, bytes.data() + i, sizeof handle);
        key = Combine(key, Handle(handle));
      }
      continue;
    }
    key = HashBytes(bytes, key);
  }
  return key;
}

void CallIdentity::Compute(const stream::DecodedCall& call, CallKeys* keys) {
  keys->function = HashBytes({reinterpret_cast<const uint8_t*>(call.name.data()), call.name.size()});
  keys->call = keys->function;
  keys->values.clear();
  if (call.slot >= 0) {
    const api::FunctionInfo& info = api::kFunctions[call.slot];
    for (int i = 0; i < info.param_count && i < static_cast<int>(call.args.size()); ++i) {
      keys->values.push_back(Value(call.args[i], info.params[i].type));
    }
    keys->values.push_back(call.has_reply ? Value(call.result, nullptr) : 0);
  }
  for (uint64_t value : keys->values) keys->call = Combine(keys->call, value);
}

}  // namespace strata::inspect
