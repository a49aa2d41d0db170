// The renderer's end of a shared-memory ring (transport/shm_ring.h) while
// the client scribbles over the memory they share: the ring's head, the
// other ring's tail, the sleeping words and the bytes, before and between
// the renderer's reads. Every index must be read once and checked; the
// stream fails with an error, never reads outside its mapping, never hangs.
//
// Input: 16 bytes of control words (client-to-renderer head, renderer-to-
// client tail, the two sleeping words), then operations of 3 bytes each
// (kind, 16-bit length), then (after a 0xff kind) the ring's bytes.
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "transport/shm_ring.h"

using namespace strata;

namespace {

constexpr uint32_t kRingBytes = transport::kMinRingBytes;
// shm_ring.cpp's layout (a fact of the format, not shared code): a 4 KiB
// control page with one 64-byte line per word, ring 0 (client to server)
// words first, then ring 0's bytes, then ring 1's.
constexpr size_t kControlBytes = 4096, kLine = 64, kRingControlBytes = 4 * kLine;

uint32_t Word(const uint8_t* at) {
  uint32_t value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 16) return 0;
  int sockets[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) return 0;
  std::string error;
  auto client = transport::RingStream::Create(sockets[1], "fuzz renderer", kRingBytes, &error);
  if (!client) {
    close(sockets[0]);
    return 0;
  }
  int descriptors[transport::kRingDescriptorCount];
  for (int i = 0; i < transport::kRingDescriptorCount; ++i) descriptors[i] = dup(client->descriptors()[i]);
  auto server = transport::RingStream::Adopt(sockets[0], "fuzz client", kRingBytes, descriptors, &error);
  if (!server) return 0;
  const size_t mapped = kControlBytes + 2 * size_t{kRingBytes};
  auto* shared = static_cast<uint8_t*>(
      mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, client->descriptors()[0], 0));
  if (shared == MAP_FAILED) return 0;
  auto put = [&](size_t at, uint32_t value) { std::memcpy(shared + at, &value, sizeof value); };
  // Ring 0: head, tail, reader_sleeping, writer_sleeping; ring 1 the same after it.
  put(0, Word(data));
  put(kRingControlBytes + kLine, Word(data + 4));
  put(2 * kLine, Word(data + 8));
  put(kRingControlBytes + 3 * kLine, Word(data + 12));

  size_t at = 16;
  std::vector<uint8_t> operations;
  while (at + 3 <= size && data[at] != 0xff) {
    operations.insert(operations.end(), data + at, data + at + 3);
    at += 3;
  }
  if (at < size) ++at;  // the 0xff
  const size_t ring_bytes = std::min(size - at, size_t{kRingBytes});
  std::memcpy(shared + kControlBytes, data + at, ring_bytes);
  // The client is gone: the renderer takes what it left and must then say so, not wait.
  client.reset();

  std::vector<uint8_t> buffer(1 << 16);
  for (size_t op = 0; op + 3 <= operations.size(); op += 3) {
    const size_t length = operations[op + 1] | operations[op + 2] << 8;
    switch (operations[op] % 6) {
      case 0: server->ReadFullyWithin(buffer.data(), length, 0); break;
      case 1:
        if (const uint8_t* view = server->View(length)) {
          volatile uint8_t sum = 0;
          for (size_t i = 0; i < length; ++i) sum = sum + view[i];
        }
        break;
      case 2: server->ReleaseViews(); break;
      case 3: server->Skip(length); break;
      case 4: server->HasBufferedInput(); break;
      default:  // the client moves its head between reads
        put(0, static_cast<uint32_t>(length) * 97u + Word(data));
        break;
    }
  }
  munmap(shared, mapped);
  return 0;
}
