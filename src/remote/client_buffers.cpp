// Mapped buffers on the client: the app writes into client memory; the bytes
// go to the renderer as memory records at flush and unmap (the executor copies
// them into the host's mapping, as replay does), and for a persistent mapping
// also before each draw (the bytes that changed). A mapping for reading is
// filled from the renderer's reply first, and again after each wait for the GPU.
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#include "remote/generated_support.h"
#include "remote/hand_call.h"
#include "remote/mapped_buffers.h"

namespace strata::remote {
namespace {

struct Mapping {
  uint8_t* memory = nullptr;
  GLsizeiptr length = 0;
  GLbitfield access = 0;
  std::vector<uint8_t> sent;  // persistent, for writing: the bytes as they last went out
};

bool PersistentWrite(const Mapping& m) { return (m.access & GL_MAP_PERSISTENT_BIT_EXT) && (m.access & GL_MAP_WRITE_BIT); }
// What the GPU writes shows in a mapping made for reading or kept persistently
// (drivers let apps read those too).
bool Readable(const Mapping& m) { return (m.access & (GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT_EXT)) != 0; }

// Per thread and buffer (the context current on the thread has it): a
// mapping belongs to its buffer, not to the target it was mapped through (an
// app maps several buffers through one target, unbinds them and writes on).
// Ordered by name, as the renderer orders the mappings it reads back.
thread_local std::map<GLuint, Mapping> t_mappings;
// Whether any thread has mapped a buffer, and one persistently for writing:
// until then the per-draw and per-upload checks need not look at
// t_mappings, a thread_local of a shared library, which costs a call to
// __tls_get_addr each time. Never cleared.
std::atomic<bool> g_mapped{false};
std::atomic<bool> g_persistent_writes{false};

// The buffer bound at `target`, as the client's shadow knows it (0: none).
GLuint Bound(Connection& c, GLenum target) { return c.shadow().BoundBuffer(target); }

void* Map(api::Slot slot, GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
  Connection* c = ThreadConnection();
  if (c == nullptr) return nullptr;
  const GLuint buffer = Bound(*c, target);
  // No buffer, or one mapped already: the renderer's map fails with the GL error the app gets.
  const bool refused = length <= 0 || buffer == 0 || t_mappings.count(buffer) != 0;
  auto* memory = refused ? nullptr : static_cast<uint8_t*>(std::calloc(static_cast<size_t>(length), 1));
  if (memory == nullptr) {
    if (refused) HandCall(*c, slot, HandCall::kNoAnswer).Uint(target).Int(offset).Int(length).Uint(access).End();
    return nullptr;
  }
  // The client's memory is the mapping the stream names, as a trace records
  // the app's pointer; a mapping for reading waits for the buffer's bytes.
  const bool read = (access & GL_MAP_READ_BIT) != 0;
  HandCall call(*c, slot, read ? HandCall::kAnswer : HandCall::kNoAnswer, reinterpret_cast<uintptr_t>(memory));
  call.Uint(target).Int(offset).Int(length).Uint(access);
  if (read) {
    const stream::wire::Reply* r = call.Wait();
    if (r == nullptr || r->result.u == 0) {
      std::free(memory);
      return nullptr;
    }
    if (r->has_data) std::memcpy(memory, r->data.data(), std::min(r->data.size(), static_cast<size_t>(length)));
  } else {
    call.End();
  }
  Mapping& m = t_mappings[buffer];
  m = {memory, length, access, {}};
  g_mapped.store(true, std::memory_order_relaxed);
  if (PersistentWrite(m)) {
    g_persistent_writes.store(true, std::memory_order_relaxed);
    // Only what the app changes goes out: the mapping as it starts (the
    // buffer's bytes when read, else zeros) is the baseline.
    m.sent.assign(memory, memory + length);
  }
  return memory;
}

GLboolean Unmap(api::Slot slot, GLenum target) {
  Connection* c = ThreadConnection();
  if (c == nullptr) return GL_FALSE;
  auto it = t_mappings.find(Bound(*c, target));
  if (it == t_mappings.end()) {
    HandCall(*c, slot, HandCall::kNoAnswer).Uint(target).End();  // the renderer raises the app's error
    return GL_FALSE;
  }
  const Mapping m = it->second;
  t_mappings.erase(it);
  if ((m.access & GL_MAP_WRITE_BIT) && !(m.access & GL_MAP_FLUSH_EXPLICIT_BIT)) {
    c->PutMemory(m.memory, static_cast<size_t>(m.length));
  }
  HandCall(*c, slot, HandCall::kNoAnswer).Uint(target).End();
  std::free(m.memory);
  return GL_TRUE;
}

void FlushRange(api::Slot slot, GLenum target, GLintptr offset, GLsizeiptr length) {
  Connection* c = ThreadConnection();
  if (c == nullptr) return;
  auto it = t_mappings.find(Bound(*c, target));
  if (it != t_mappings.end() && offset >= 0 && length > 0 && offset + length <= it->second.length) {
    c->PutMemory(it->second.memory + offset, static_cast<size_t>(length));
  }
  HandCall(*c, slot, HandCall::kNoAnswer).Uint(target).Int(offset).Int(length).End();
}

}  // namespace

void SendPersistentWrites() {
  if (!g_persistent_writes.load(std::memory_order_relaxed) || t_mappings.empty()) return;
  Connection* c = ThreadConnection();
  if (c == nullptr) return;
  for (auto& [buffer, m] : t_mappings) {
    if (!PersistentWrite(m)) continue;
    const size_t length = static_cast<size_t>(m.length);
    // The span from the first to the last byte that changed.
    size_t first = 0, last = length;
    while (first < length && m.memory[first] == m.sent[first]) ++first;
    if (first == length) continue;
    while (last > first && m.memory[last - 1] == m.sent[last - 1]) --last;
    c->PutMemory(m.memory + first, last - first);
    std::memcpy(m.sent.data() + first, m.memory + first, last - first);
  }
}

void TakeMappedReads(std::span<const uint8_t> data) {
  size_t expected = 0;
  for (const auto& [buffer, m] : t_mappings) {
    if (Readable(m)) expected += static_cast<size_t>(m.length);
  }
  if (expected == 0 || data.size() != expected) return;  // the renderer maps what the client does, or nothing is taken
  for (auto& [buffer, m] : t_mappings) {
    if (!Readable(m)) continue;
    std::memcpy(m.memory, data.data(), static_cast<size_t>(m.length));
    if (PersistentWrite(m)) m.sent.assign(m.memory, m.memory + m.length);
    data = data.subspan(static_cast<size_t>(m.length));
  }
}

void ForgetMapping(unsigned buffer) {
  auto it = t_mappings.find(buffer);
  if (it == t_mappings.end()) return;
  std::free(it->second.memory);
  t_mappings.erase(it);
}

void After_glBufferData(GLenum target, GLsizeiptr, const void*, GLenum) {
  if (!g_mapped.load(std::memory_order_relaxed) || t_mappings.empty()) return;
  if (Connection* c = ThreadConnectionHolding()) ForgetMapping(Bound(*c, target));
}

void After_glBufferStorageEXT(GLenum target, GLsizeiptr, const void*, GLbitfield) {
  if (!g_mapped.load(std::memory_order_relaxed) || t_mappings.empty()) return;
  if (Connection* c = ThreadConnectionHolding()) ForgetMapping(Bound(*c, target));
}

// Waits for the GPU: a round trip, which brings what the GPU wrote into
// mappings for reading.
void Remote_glFinish() {
  if (void* native = NativeFunction(api::glFinish)) return reinterpret_cast<PFNGLFINISHPROC>(native)();
  Connection* c = ThreadConnection();
  if (c == nullptr) return;
  SendPersistentWrites();  // the app's own writes first, or the renderer's bytes would overwrite them
  const stream::wire::Reply* r = HandCall(*c, api::glFinish, HandCall::kAnswer).Wait();
  if (r != nullptr && r->has_data) TakeMappedReads(r->data);
}

GLenum Remote_glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  if (void* native = NativeFunction(api::glClientWaitSync)) {
    return reinterpret_cast<PFNGLCLIENTWAITSYNCPROC>(native)(sync, flags, timeout);
  }
  Connection* c = ThreadConnection();
  if (c == nullptr) return GL_WAIT_FAILED;
  SendPersistentWrites();
  const stream::wire::Reply* r =
      HandCall(*c, api::glClientWaitSync, HandCall::kAnswer).Handle(sync).Uint(flags).Uint(timeout).Wait();
  if (r == nullptr) return GL_WAIT_FAILED;
  if (r->has_data) TakeMappedReads(r->data);
  return static_cast<GLenum>(r->result.u);
}

void* Hand_glMapBufferRange(api::Slot slot, GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
  return Map(slot, target, offset, length, access);
}

void* Remote_glMapBufferOES(GLenum target, GLenum access) {
  if (void* native = NativeFunction(api::glMapBufferOES)) {
    return reinterpret_cast<PFNGLMAPBUFFEROESPROC>(native)(target, access);
  }
  // The whole buffer, write-only (GL_WRITE_ONLY_OES is the only access).
  auto get = reinterpret_cast<void (*)(GLenum, GLenum, GLint*)>(kRemoteFunctions[api::glGetBufferParameteriv]);
  GLint size = 0;
  get(target, GL_BUFFER_SIZE, &size);
  (void)access;
  return Map(api::glMapBufferRange, target, 0, size, GL_MAP_WRITE_BIT);
}

GLboolean Hand_glUnmapBuffer(api::Slot slot, GLenum target) { return Unmap(slot, target); }

void Hand_glFlushMappedBufferRange(api::Slot slot, GLenum target, GLintptr offset, GLsizeiptr length) {
  FlushRange(slot, target, offset, length);
}

void Hand_glGetBufferPointerv(api::Slot, GLenum target, GLenum pname, void** params) {
  Connection* c = ThreadConnectionHolding();
  if (params == nullptr || c == nullptr) return;
  auto it = t_mappings.find(Bound(*c, target));
  *params = pname == GL_BUFFER_MAP_POINTER && it != t_mappings.end() ? it->second.memory : nullptr;
}

}  // namespace strata::remote
