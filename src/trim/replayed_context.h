#pragma once
// What a snapshot needs to know of a replayed trace beyond what the driver
// can be asked: facts the stream showed on the way (a texture's target, the
// shaders each program was linked from, the uploads of textures the driver
// cannot give back, and of a GLES 1.1 context's textures and buffers, the
// contexts alive, what each thread made current),
// gathered call by call while the replay runs up to the trim's start, and
// the executor's names for the objects (ReplayedContext).

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "host/executor.h"
#include "snapshot/call_list.h"
#include "snapshot/snapshot_source.h"

namespace strata::trim {

class StreamFacts {
 public:
  // Before each call runs, on its host thread with its context current.
  void BeforeCall(host::Executor& executor, const stream::DecodedCall& call);

  struct MakeCurrent {
    uint64_t display = 0, draw = 0, read = 0, context = 0;
  };
  // What each stream thread made current last (context 0: none).
  const std::map<uint64_t, MakeCurrent>& current() const { return current_; }
  // Contexts created and not destroyed.
  const std::set<uint64_t>& live_contexts() const { return live_contexts_; }

  // Of an object of share group `group` (Executor::CurrentShareGroup):
  // contexts of other groups may use the same names.
  GLenum TextureTarget(uint64_t group, uint64_t texture) const;
  const std::vector<snapshot::LinkedShader>* LinkedShaders(uint64_t group, uint64_t program) const;
  const snapshot::TextureUploads* UploadsOf(uint64_t group, uint64_t texture) const;
  const std::vector<const stream::DecodedCall*>* BufferUploadsOf(uint64_t group, uint64_t buffer) const;

 private:
  struct KeptTexture {
    snapshot::CallList calls;
    snapshot::TextureUploads uploads;
  };
  void TextureUpload(host::Executor& executor, const stream::DecodedCall& call);
  // GLES 1.1 cannot give buffers back: the calls that filled them are kept.
  void BufferUpload(host::Executor& executor, const stream::DecodedCall& call);
  struct KeptBuffer {
    snapshot::CallList calls;
    std::vector<const stream::DecodedCall*> uploads;
  };

  using ObjectKey = std::pair<uint64_t, uint64_t>;  // share group, recorded name
  std::map<uint64_t, MakeCurrent> current_;
  std::set<uint64_t> live_contexts_;
  std::map<ObjectKey, GLenum> texture_targets_;
  std::map<ObjectKey, std::vector<snapshot::LinkedShader>> linked_;
  std::map<ObjectKey, std::unique_ptr<KeptTexture>> kept_;
  std::map<ObjectKey, std::unique_ptr<KeptBuffer>> kept_buffers_;
};

// The context current on a replay thread, as a snapshot reads it.
class ReplayedContext final : public snapshot::SnapshotSource {
 public:
  ReplayedContext(host::Executor& executor, uint32_t thread, const StreamFacts& facts)
      : executor_(executor), thread_(thread), group_(executor.CurrentShareGroup(thread)), facts_(facts) {}
  void* Function(api::Slot slot) const override { return executor_.driver().Function(slot); }
  int Version() const override;
  std::vector<std::pair<uint64_t, uint64_t>> LiveObjects(api::ObjectClass object) const override {
    return executor_.LiveNames(thread_, object);
  }
  uint64_t StreamName(api::ObjectClass object, uint64_t driver) const override {
    return executor_.StreamName(thread_, object, driver);
  }
  int64_t StreamLocation(uint64_t program, int64_t driver_location) const override {
    return executor_.RecordedLocation(thread_, program, driver_location);
  }
  GLenum TextureTarget(uint64_t texture) const override { return facts_.TextureTarget(group_, texture); }
  const std::vector<snapshot::LinkedShader>* LinkedShaders(uint64_t program) const override {
    return facts_.LinkedShaders(group_, program);
  }
  uint64_t ClientArrayAddress(GLuint attribute) const override {
    return executor_.ClientArrayAddress(thread_, attribute);
  }
  const snapshot::TextureUploads* UploadsOf(uint64_t texture) const override {
    return facts_.UploadsOf(group_, texture);
  }
  const std::vector<const stream::DecodedCall*>* BufferUploadsOf(uint64_t buffer) const override {
    return facts_.BufferUploadsOf(group_, buffer);
  }
  uint64_t Gles1ClientArrayAddress(api::Slot pointer_function, GLuint unit, uint64_t) const override {
    return executor_.Gles1ClientArrayAddress(thread_, pointer_function, unit);
  }
  bool SurfacePixels(int* width, int* height, std::vector<uint8_t>* rgba) const override;
  // Whether the surface holds what the app drew (no draw into it was
  // skipped): then the snapshot carries it where it matters. At a frame's
  // start, that is where the surface keeps its contents across swaps
  // (EGL_BUFFER_PRESERVED); for a thread caught mid-frame (another thread's
  // frame starts the range) it always is.
  void CarrySurface(bool carry, bool mid_frame = false) {
    carry_surface_ = carry;
    mid_frame_ = mid_frame;
  }

 private:
  host::Executor& executor_;
  const uint32_t thread_;
  const uint64_t group_;
  const StreamFacts& facts_;
  bool carry_surface_ = false, mid_frame_ = false;
};

}  // namespace strata::trim
