#pragma once
// The client's reading of one message from the renderer while a thread
// waits for the reply to one of its calls: framebuffer records (a window's
// frames) go to the caller, the reply is decoded and matched to the call, a
// renderer's "error" event closes the client. Everything in the message is
// the renderer's word: a malformed or unexpected record is an error, never
// trusted (fuzz/client_replies_fuzz.cpp).

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "stream/framebuffer_record.h"
#include "stream/wire.h"

namespace strata::remote {

enum class ReplyScan {
  kReplied,    // *reply holds the reply to the call waited for
  kNotYet,     // the message ended without it: read the next one
  kClosed,     // the renderer closed this client; *why says why
  kMalformed,  // *why names the problem
};

// Scans `message` for the reply to call `sequence` of function `slot`,
// handing each framebuffer record before it, decoded, to `on_frame` (may be
// empty); a framebuffer record that does not decode makes the message malformed.
ReplyScan ScanRendererMessage(std::span<const uint8_t> message, uint64_t sequence, int slot,
                              stream::wire::Reply* reply,
                              const std::function<void(const stream::FramebufferImage&)>& on_frame, std::string* why);

}  // namespace strata::remote
