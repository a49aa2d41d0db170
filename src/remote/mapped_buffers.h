#pragma once
// What the client's mapped buffers owe the renderer and back, beyond map,
// flush and unmap (client_buffers.cpp): persistent mappings stay mapped while
// the GL reads and writes them.

#include <cstdint>
#include <span>

namespace strata::remote {

// Before a draw: the bytes the app changed in its persistent mappings since
// they last went out.
void SendPersistentWrites();

// After a call that waited for the GPU (glFinish, glClientWaitSync): the
// renderer's bytes of every mapping made for reading or kept persistently, in
// the order of their buffers' names, as its reply carries them.
void TakeMappedReads(std::span<const uint8_t> data);

// A buffer deleted or given new storage is unmapped by GL: its mapping goes.
void ForgetMapping(unsigned buffer);

}  // namespace strata::remote
