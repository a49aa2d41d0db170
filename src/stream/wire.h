#pragma once
// The command stream on the wire between a remote client and the renderer
// (docs/remote.md): a handshake, then messages that are runs of the same
// records a trace file's chunks hold, plus reply records. Knows nothing of
// sockets: callers read and write the bytes through their transport.
//
// Handshake, each side once, the client first:
//   8 bytes magic ("STRATAC\n" from the client, "STRATAR\n" from the renderer)
//   u32 protocol version | u32 body size (at most kMaxHelloBody)
//   body: key/value pairs, each as u32 length + bytes (as a trace header's)
// Then messages, both ways:
//   u32 byte length (at most the limit the reader sets) | records
// A client message is one batch: its call records are a stream::CallRun (the
// first call carries absolute numbers). A renderer message holds replies
// (type 6) and framebuffer records (type 5) for window surfaces.
// With bulk-v1, a client sends each blob of a call record of at least
// kBulkBlobBytes out of line, as a bulk segment before the message that holds
// the record (stream/bulk_blobs.h):
//   u32 (byte length | kBulkSegmentBit) | the blob's bytes
// The record keeps the blob's length varint and leaves out its bytes; the
// segments before a message are its records' bulk blobs in order, each used
// exactly once. Before a segment may come padding, which places it where the
// transport wants it (ByteStream::PlacementPadding) and is skipped unread:
//   u32 (byte length | kBulkSegmentBit | kPaddingBit) | that many bytes

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "stream/byte_writer.h"
#include "stream/call_decoder.h"

namespace strata::stream::wire {

inline constexpr uint32_t kProtocolVersion = 1;
inline constexpr char kClientMagic[9] = "STRATAC\n";
inline constexpr char kRendererMagic[9] = "STRATAR\n";
inline constexpr size_t kHelloHeaderBytes = 16;
inline constexpr uint32_t kMaxHelloBody = 4u << 20;
inline constexpr size_t kMessageHeaderBytes = 4;

// Features both sides must name for the wire to use them.
inline constexpr char kFeatureRecords[] = "records-v1";      // call/memory/trace-event records of trace-format.md
inline constexpr char kFeatureReplies[] = "replies-v1";      // reply records (this file)
inline constexpr char kFeatureWindowFrames[] = "frames-v1";  // framebuffer records answer a window's swap
inline constexpr char kFeatureBulk[] = "bulk-v1";            // large blobs out of line (above)
inline constexpr char kFeatureWordRuns[] = "words-v1";      // calls of scalars as words (stream/word_run.h)
inline constexpr char kFeatureWordArrays[] = "words-v2";    // and of scalars and one input array (the same)

// A blob this large goes out of line: a message of records stays small, and
// a renderer reading from shared memory hands the blob to the driver where
// it lies.
inline constexpr size_t kBulkBlobBytes = 64 * 1024;
inline constexpr uint32_t kBulkSegmentBit = 1u << 31;
inline constexpr uint32_t kPaddingBit = 1u << 30;

// Call record flag (trace-format.md's flags byte): the client waits for a
// reply record to this call.
inline constexpr uint8_t kCallWantsReply = 16;

struct Hello {
  uint32_t version = kProtocolVersion;
  std::map<std::string, std::string> values;
  const std::string* Find(const std::string& key) const {
    auto it = values.find(key);
    return it == values.end() ? nullptr : &it->second;
  }
};

std::vector<uint8_t> EncodeHello(const char* magic, const Hello& hello);
// The body size the 16 header bytes announce; false with *error when the
// magic is not `magic` (a peer that is not Strata's, or the other role) or the
// size is out of range. The version is returned as is: the caller decides.
bool DecodeHelloHeader(std::span<const uint8_t> header, const char* magic, uint32_t* version, uint32_t* body_size,
                       std::string* error);
bool DecodeHelloBody(std::span<const uint8_t> body, Hello* hello, std::string* error);

// Features of a comma-separated list that both lists name.
std::string CommonFeatures(const std::string& ours, const std::string& theirs);
bool HasFeature(const std::string& list, const std::string& feature);

// An empty message: the client thread ends its connection on purpose (the
// renderer can then tell a clean end from a killed client).
inline constexpr uint32_t kGoodbye = 0;

// The message header for `size` bytes of records (or, with kBulkSegmentBit,
// of a bulk segment).
void PutMessageHeader(uint8_t* header, uint32_t size);
uint32_t MessageSize(const uint8_t* header);

// A reply record: what a call gave back.
//   varint sequence of the call | u8 reply flags (1: has EGL error)
//   return value (scalar by the function's return kind; a blob for strings)
//   per data-pointer parameter, in order: blob (bytes the call wrote; absent when none)
//   if flags & 1: zigzag EGL error (eglGetError right after the call)
//   if flags & 2: blob of data the call made readable to the client (the
//                 contents of a buffer mapped for reading)
struct Reply {
  uint64_t sequence = 0;
  DecodedValue result;
  std::vector<DecodedValue> outputs;  // per parameter; has_out/out for data pointers
  std::optional<int32_t> egl_error;
  bool has_data = false;
  std::span<const uint8_t> data;
};
void EncodeReply(ByteBuffer& out, int slot, const Reply& reply);
// False with *error for a reply that does not fit `slot`'s layout.
bool DecodeReply(std::span<const uint8_t> payload, int slot, Reply* reply, std::string* error);

}  // namespace strata::stream::wire
