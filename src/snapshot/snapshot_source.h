#pragma once
// What a snapshot reads: a live GLES context (the driver's functions, with
// the context current on the calling thread) and how the stream names its
// objects. A replay (strata trim) answers from the executor's name maps; a
// traced process would answer with its own names. The facts GLES cannot be
// asked for (a texture's target, the shaders a program was linked from
// once they are detached) come from whoever watched the stream.

#include <GLES3/gl32.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "glstate/shader_state.h"
#include "stream/call_decoder.h"
#include "strata/api/functions.h"
#include "strata/api/replay.h"

namespace strata::snapshot {

// A recorded call that gave a texture contents, with the unpack state
// (glPixelStorei's values) its bytes were laid out by.
struct RecordedUpload {
  std::vector<std::pair<GLenum, GLint>> unpack;
  const stream::DecodedCall* call = nullptr;
};
struct TextureUploads {
  std::vector<RecordedUpload> uploads;
  bool from_buffer = false;  // some upload read a pixel unpack buffer: not kept
};

// A shader a program was linked from (its name is of no use once linked).
using LinkedShader = glstate::ShaderSource;

// The version a snapshot writes for a context made for GLES `major`: a GLES
// 3 context is whatever 3.x the app used (the snapshot also stays within the
// driver's own version).
constexpr int SnapshotVersion(int major) { return major >= 3 ? 32 : major * 10; }

class SnapshotSource {
 public:
  virtual ~SnapshotSource() = default;
  // The driver's function for a registry slot, or null.
  virtual void* Function(api::Slot slot) const = 0;
  // The GLES version the context was made for (20, 30, 31, 32): the calls
  // written are those of that version, whatever the driver could do.
  virtual int Version() const = 0;
  // Every live object of a class the context sees: (stream name, driver name).
  virtual std::vector<std::pair<uint64_t, uint64_t>> LiveObjects(api::ObjectClass object) const = 0;
  // A driver object name as the stream names it (0 for 0).
  virtual uint64_t StreamName(api::ObjectClass object, uint64_t driver) const = 0;
  // The location the stream uses for a uniform of a program (stream name)
  // that the driver gives `driver_location`.
  virtual int64_t StreamLocation(uint64_t program, int64_t driver_location) const = 0;
  // The target a texture (stream name) was first bound to; 0 if never bound.
  virtual GLenum TextureTarget(uint64_t texture) const = 0;
  // The shaders a program (stream name) was last linked from; null when
  // nobody watched its link (the snapshot then relinks it from the shaders
  // attached to it now, if any).
  virtual const std::vector<LinkedShader>* LinkedShaders(uint64_t program) const = 0;
  // The stream's address of a client-side vertex array of the default
  // vertex array object (0: none known).
  virtual uint64_t ClientArrayAddress(GLuint attribute) const = 0;
  // The calls that gave a texture its contents, for one whose images the
  // driver cannot give back (compressed, luminance, depth: see
  // context_snapshot.cpp); null when none were kept.
  virtual const TextureUploads* UploadsOf(uint64_t texture) const = 0;
  // For a context whose buffers the driver cannot give back (GLES 1.1): the
  // calls that filled a buffer (stream name), the last glBufferData first;
  // null when none were kept.
  virtual const std::vector<const stream::DecodedCall*>* BufferUploadsOf(uint64_t /*buffer*/) const {
    return nullptr;
  }
  // The stream's address of a GLES 1.1 client array, by the function that
  // pointed it (glVertexPointer, ...) and, for glTexCoordPointer, the unit;
  // `driver_pointer` is what the driver holds (a live program's own address).
  virtual uint64_t Gles1ClientArrayAddress(api::Slot /*pointer_function*/, GLuint /*unit*/,
                                           uint64_t driver_pointer) const {
    return driver_pointer;
  }
  // The draw surface's pixels (RGBA8, bottom row first), when what the
  // calls after the snapshot draw on top of matters; false to leave the
  // surface out (what is there is not what the app had, or is cleared anyway).
  virtual bool SurfacePixels(int* width, int* height, std::vector<uint8_t>* rgba) const = 0;
};

}  // namespace strata::snapshot
