#pragma once
// Runs a decoded command stream on the host's EGL/GLES. It maps every object
// name and handle the stream uses to the ones the host made, keeps client
// memory (vertex arrays, mapped buffers) the stream sends, and stands in host
// surfaces for the recorded windows. It knows nothing of where the stream
// comes from: a trace file or a live connection feed it alike.
//
// Calls of one recorded thread must run on one host thread (EGL binds contexts
// to threads); the caller runs calls of different threads one at a time.

#include <EGL/egl.h>
#include <GLES2/gl2.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "host/host_driver.h"
#include "host/invoke.h"
#include "host/object_names.h"
#include "host/storage_budget.h"
#include "host/surface_factory.h"
#include "stream/call_decoder.h"
#include "stream/driver_capture_state.h"

namespace strata::host {

struct RgbaImage {
  int width = 0, height = 0;
  bool bgra = false;            // read as BGRA8 (ReadOrder::kBgraWhereNative)
  std::vector<uint8_t> pixels;  // RGBA8, bottom row first (as glReadPixels gives it)
};

// kBgraWhereNative: BGRA8 where the host reads it (GL_EXT_read_format_bgra),
// saving the driver's per-pixel conversion, for frames only shown on screen.
enum class ReadOrder { kRgba, kBgraWhereNative };

// What a call gave back on the host, in the stream's terms: names and handles as the stream knows them.
struct CallReply {
  stream::DecodedValue result;                 // kind kVoid for void functions; strings in result.out
  std::vector<stream::DecodedValue> outputs;   // per parameter: has_out + out = bytes the call wrote behind a data pointer (sized by the capture rule after the call); valid until the next Execute
  int32_t egl_error = 0x3000;                  // EGL_SUCCESS; for EGL functions, the host's eglGetError() right after the call
  // Bytes of host mappings a live client reads: of a buffer mapped for
  // reading (glMapBufferRange with GL_MAP_READ_BIT), and after a wait for the
  // GPU (glFinish, glClientWaitSync) of every mapping made for reading or
  // kept persistently, in the order of their buffers' names.
  std::span<const uint8_t> mapped;
};

class Executor {
 public:
  Executor(const HostDriver& driver, SurfaceFactory& surfaces);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Runs one call of recorded thread `call.thread`. False when the call could
  // not run here (its reason goes to problems(), once per function); the
  // stream goes on either way. Every blob is checked against the size the
  // call's own arguments imply before the host driver sees it; a call whose
  // blobs fall short, or that would make the driver read memory at an
  // address the stream chose, is refused. With `reply`, what the call gave
  // back (zeros for a refused call).
  bool Execute(const stream::DecodedCall& call, CallReply* reply = nullptr);

  // A memory record: bytes of app memory the thread's next calls read.
  void WriteMemory(uint32_t thread, uint64_t address, std::span<const uint8_t> bytes);
  // A surface trace event: the size of a recorded window or pixmap surface.
  void SetSurfaceSize(uint64_t recorded_surface, int width, int height);
  // A config trace event: the format of a recorded config (EGL attribute, value pairs).
  void SetConfigFormat(uint64_t recorded_config, std::vector<std::pair<int32_t, int32_t>> attributes);

  // Called on the thread's host thread right before eglSwapBuffers runs, with
  // the recorded call and surface; the surface's contents can still be read then.
  std::function<void(const stream::DecodedCall& swap, uint64_t surface)> before_swap;

  // Reads a rectangle of recorded framebuffer `framebuffer` (0: the surface)
  // of the thread's current context, as the tracer captured it.
  bool ReadFramebuffer(uint32_t thread, uint64_t framebuffer, int x, int y, int width, int height, RgbaImage* image,
                       std::string* error, ReadOrder order = ReadOrder::kRgba);
  // Reads the whole draw surface of the thread's current context.
  bool ReadSurface(uint32_t thread, RgbaImage* image, std::string* error, ReadOrder order = ReadOrder::kRgba);
  // Where a read-back image goes, asked once its size and order are known:
  // room for width * height * 4 bytes, or null to read nothing (the read
  // then fails with *error empty).
  using PixelPlace = std::function<uint8_t*(int width, int height, bool bgra)>;
  // ReadSurface into memory the caller places (a renderer's transport).
  bool ReadSurfaceInto(uint32_t thread, const PixelPlace& place, std::string* error, ReadOrder order);

  // For reading a context's state back (`strata state`): the GLES version
  // the thread's current context was made for (0: none is current), and a
  // host object name of it as the stream names it (ToStream: a name the
  // stream never made stands for itself).
  int CurrentVersion(uint32_t thread);
  uint64_t StreamName(uint32_t thread, api::ObjectClass object, uint64_t host);
  uint64_t CurrentContext(uint32_t thread) { return ThreadOf(thread).context; }  // the recorded handle
  // The stream's number of the context the thread's last call ran in (DecodedCall::context).
  uint64_t StreamContext(uint32_t thread) { return ThreadOf(thread).stream_context; }
  // The share group of the thread's current context, or of a recorded
  // context, as a number no other group of this executor has (0: none).
  uint64_t CurrentShareGroup(uint32_t thread);
  uint64_t ShareGroupOf(uint64_t recorded_context) const;
  // Runs `work` with recorded context `recorded_context` current on the
  // calling host thread, the host thread of `thread`, without surfaces
  // (it must be current on no other thread), then makes current again what
  // was; false with *error when the host refuses. To read a context that no
  // thread has current.
  bool WithContextCurrent(uint32_t thread, uint64_t recorded_context, const std::function<void()>& work,
                          std::string* error);
  // Whether the thread's draws now go into its surface (no framebuffer
  // object bound); false with no context, and for GLES 1.1, which has no
  // binding to ask about without leaving the app an error.
  bool DrawsIntoSurface(uint32_t thread);
  // For a snapshot of the current context (snapshot/): every object of a
  // class it sees, as (recorded, host) names sorted by recorded name; the
  // recorded location of a host uniform location of a (recorded) program
  // (the host's where the stream never asked for it); the recorded address
  // of a client-side vertex array of the default vertex array object (0: none).
  std::vector<std::pair<uint64_t, uint64_t>> LiveNames(uint32_t thread, api::ObjectClass object);
  int64_t RecordedLocation(uint32_t thread, uint64_t program, int64_t host_location);
  uint64_t ClientArrayAddress(uint32_t thread, uint32_t attribute);
  // The same for a GLES 1 array, by the function that points it
  // (glVertexPointer, ...; glTexCoordPointer per texture unit).
  uint64_t Gles1ClientArrayAddress(uint32_t thread, api::Slot pointer_function, uint32_t unit);
  uint64_t HostName(uint32_t thread, api::ObjectClass object, uint64_t recorded) {
    return ToHost(ThreadOf(thread), object, recorded, 0);
  }
  const HostDriver& driver() const { return driver_; }

  // Counts the GL storage (buffers, textures, renderbuffers) the stream's
  // calls ask for against `limit_bytes` (0: counted, never refused). A call
  // that would pass it is refused before the driver sees it, and the
  // context's next glGetError says GL_OUT_OF_MEMORY.
  void SetStorageLimit(uint64_t limit_bytes) { storage_ = std::make_unique<StorageBudget>(limit_bytes); }
  // Refuses a draw whose vertices (its count, times its instances) pass
  // `max_vertices`, before the driver sees it (one call not run, counted in
  // problems()); unlimited by default. The fuzz targets set it: a legal
  // glDrawArraysInstanced of two billion instances keeps llvmpipe busy for
  // minutes, which is the driver's time, not a finding. With a limit, draws
  // leave the generated handlers for Execute, where it is checked.
  void SetDrawLimit(uint64_t max_vertices);
  // Whether a draw of `count` vertices and `instances` instances is within it
  // (a count or instances below 1 draws nothing, or is the driver's error to raise).
  bool DrawWithinLimit(int64_t count, int64_t instances) const {
    return count <= 0 || instances <= 0 ||
           static_cast<uint64_t>(count) * static_cast<uint64_t>(instances) <= draw_vertex_limit_;
  }
  const StorageBudget* storage() const { return storage_.get(); }

  // A call to a function the tracer did not know (recorded by name, without
  // arguments): not run, counted in problems().
  void SkipUnknownFunction(const stream::DecodedCall& call) {
    Problem(call, "a function Strata's registry does not know: the trace holds its name, not its arguments");
  }
  // Why calls could not run: one line per function, with a count.
  std::vector<std::string> problems() const;
  uint64_t skipped_calls() const { return skipped_; }

 private:
  bool ReadFramebufferInto(uint32_t thread, uint64_t framebuffer, int x, int y, int width, int height,
                           const PixelPlace& place, std::string* error, ReadOrder order);

  struct ClientArray {
    int slot;
    std::vector<Word> args;
    int pointer_param;
    uint64_t pointer;
    uint64_t stride;   // bytes from one vertex to the next
    uint64_t element;  // bytes of one vertex's attribute
  };
  struct MappedRange {
    uint64_t recorded;
    uint8_t* host;
    uint64_t length;
    uint64_t access;  // GL_MAP_*_BIT
  };
  // Its first two cache lines hold what each uniform call and each draw
  // from buffers reads (LocationsCurrent, FastDrawReady): between two driver
  // calls, whose copies empty the data cache, every line read is a miss.
  struct alignas(64) Context {
    uint64_t program = 0;
    // The current program's uniform locations (FindLocations), while
    // `locations_program` is the program; a table of the share group made or
    // erased resets it in every context of the group (ForgetLocationTables),
    // so that a uniform call reads nothing of the share group.
    const UniformLocations* locations = nullptr;
    uint64_t locations_program = UINT64_MAX;
    int version = 1;
    int has_vertex_array_objects = -1;  // GLES 3, or GLES 2 with OES_vertex_array_object: asked once
    // The vertex array object bound on the host as the driver said it; -1:
    // ask again (a call that binds or deletes vertex arrays ran since).
    int64_t vertex_array_bound = -1;
    uint64_t vertex_array = 0;
    std::map<uint64_t, ClientArray> client_arrays;  // by attribute (GLES 1: by array)
    // Vertex array objects (host names) whose enabled arrays all read from
    // buffers, as a draw found them: the next draws skip asking about every
    // attribute. Forgotten by any call that may change an array's enable,
    // buffer or pointer (the changes-vertex-arrays trait), and by client arrays applied.
    std::vector<uint32_t> arrays_in_buffers;
    EGLContext host = EGL_NO_CONTEXT;
    EGLConfig host_config = nullptr;
    std::shared_ptr<ShareGroup> shared;
    NameMap names[static_cast<int>(api::ObjectClass::kCount)];  // objects contexts do not share
    // The map of a GL object class: the share group's or the context's own.
    NameMap& NamesOf(api::ObjectClass object) {
      return IsShared(object) ? shared->names[static_cast<int>(object)] : names[static_cast<int>(object)];
    }
    uint64_t array_buffer = 0;
    uint32_t client_texture = 0;
    int max_vertex_attribs = -1;  // asked of the host once
    int has_matrix_palette = -1;  // GLES 1 with OES_matrix_palette (its two client arrays): asked once
    int reads_bgra = -1;          // GL_EXT_read_format_bgra, asked of the host once
    std::map<uint64_t, uint64_t> divisors;  // of vertex array 0's attributes, where not 0
    // By buffer (the stream's name): a mapping belongs to its buffer, not to
    // the target it was bound to (an app maps several buffers through one
    // target and unbinds them); deleting or respecifying the buffer unmaps it.
    std::map<uint64_t, MappedRange> mapped;
    uint32_t refused_error = 0;  // GL_OUT_OF_MEMORY of a call refused over the storage budget, for glGetError
    bool LocationsCurrent() const {
      return locations_program == program;
    }
    // A recorded location through that table; a program with none (a
    // renderer's client asks the host for its locations) maps nothing.
    int64_t MappedLocation(int64_t recorded) const {
      return locations != nullptr ? locations->ToHost(recorded) : recorded;
    }
  };
  struct Surface {
    EGLSurface host = EGL_NO_SURFACE;
    EGLConfig host_config = nullptr;
    bool stand_in = false;  // made by the factory for a window or pixmap, created on first use
    int width = 0, height = 0;
  };
  struct Region {
    uint64_t address;
    std::vector<uint8_t> bytes;
  };
  // What a draw from buffers reads of it first, on one cache line (Context).
  struct alignas(64) Thread {
    Context* current = nullptr;  // its state (looked up once per eglMakeCurrent, not per call)
    std::vector<Region> memory;  // client arrays for the thread's next draw
    std::vector<uint64_t> applied_arrays;  // host addresses the executor gave client arrays for this draw
    bool draws_limited = false;  // SetDrawLimit: draws run through Execute
    uint64_t context = 0;  // recorded handle of the current context
    uint64_t stream_context = 0;  // the stream's number of it, as its last call carried
    int32_t egl_error = 0x3000;  // the last EGL call's, for eglGetError (only kept for replies)
    int32_t refused_egl_error = 0;  // the error of an EGL call the executor failed itself, instead of the host's
  };
  // Scratch memory for one call's pointer arguments.
  struct Scratch {
    std::vector<std::vector<uint8_t>> buffers;
    size_t used = 0;
    uint8_t* Get(size_t size);
  };

  // The fast path's share of the work (fast_call.h).
  friend class FastCall;
  // A recorded uniform location once the context's table is no longer
  // LocationsCurrent(): the current program's table found again first.
  static int64_t FindLocations(Context& context, int64_t recorded);
  // A program's table was made or erased in `group`: its contexts find their tables again.
  void ForgetLocationTables(const ShareGroup& group);
  bool FastDrawReady(Thread& thread);
  // Whether an input blob of `size` bytes for `slot`'s parameter `param`
  // holds all its call's host arguments `args` imply (the check
  // CheckBlobsAndSizeOutputs makes for Execute).
  bool FastInputCovered(int slot, const Word* args, int param, uint64_t size);
  // What the executor follows of a call that binds (TrackBindings and the
  // generated handlers alike), by core function: the buffer bound to
  // GL_ARRAY_BUFFER, the program in use, the vertex array bound. Inline: a
  // handler passes its function's core as a constant, and the switch folds
  // to its one case or to nothing (FastCall::Follow).
  [[gnu::always_inline]] static void FollowBinding(Context& context, int core, uint64_t first, uint64_t second) {
    switch (core) {
      case api::glBindBuffer:
        if (first == GL_ARRAY_BUFFER) context.array_buffer = second;
        break;
      case api::glBindVertexArray:
        context.vertex_array = first;
        context.vertex_array_bound = -1;
        break;
      case api::glUseProgram:
        context.program = first;
        break;
      default:
        break;
    }
  }

  Context* Current(const Thread& thread);
  // Calls come in runs of one thread: the last one is remembered (map nodes do not move).
  Thread& ThreadOf(uint32_t id) {
    return last_thread_ != nullptr && last_thread_id_ == id ? *last_thread_ : AnotherThread(id);
  }
  Thread& AnotherThread(uint32_t id);
  // Inline for the common case: most scalar arguments name no object.
  uint64_t ToHost(const Thread& thread, api::ObjectClass object, uint64_t recorded, uint64_t program_hint) {
    return object == api::ObjectClass::kNone ? recorded : MappedToHost(thread, object, recorded, program_hint);
  }
  uint64_t MappedToHost(const Thread& thread, api::ObjectClass object, uint64_t recorded, uint64_t program_hint);
  void AddName(const Thread& thread, api::ObjectClass object, uint64_t recorded, uint64_t host,
               uint64_t program_hint);
  void RemoveName(const Thread& thread, api::ObjectClass object, uint64_t recorded);
  void Problem(const stream::DecodedCall& call, const std::string& why);

  // Generic path: arguments from the record, names translated, the call made,
  // created names mapped.
  bool RunGeneric(const stream::DecodedCall& call, Thread& thread, Word* result, CallReply* reply);
  // A range draw (glDrawRangeElements...) run as its draw without the
  // range; false when the driver has no such draw.
  bool RunWithoutRange(int slot, const Word* args);
  // Maps the names a call made (its result, its output names) and forgets the ones it deleted.
  void MapNamesMade(const stream::DecodedCall& call, const Thread& thread, const std::vector<Word>& args,
                    const Word& result);
  // The host arguments of a call; its blobs checked and its output buffers
  // sized (executor_checks.cpp). `capacity` gets the bytes each output
  // buffer holds (0: none).
  bool BuildArguments(const stream::DecodedCall& call, Thread& thread, std::vector<Word>* args,
                      std::vector<size_t>* capacity);

  // Checks (executor_checks.cpp).
  bool CheckBlobsAndSizeOutputs(const stream::DecodedCall& call, Thread& thread, std::vector<Word>& args,
                                std::vector<size_t>* capacity);
  bool HostBufferBound(const Thread& thread, uint32_t binding);
  bool ClientArraysCovered(const stream::DecodedCall& call, Thread& thread);
  bool EnabledArraysCovered(const stream::DecodedCall& call, const Thread& thread, Context& context,
                            bool* all_in_buffers);
  // A copy of an input blob whose end stops any scan a capture rule makes (strings, attribute lists).
  uint8_t* ScanSafeCopy(std::span<const uint8_t> bytes);

  // Replies (executor_reply.cpp).
  void ReplyResult(const stream::DecodedCall& call, Thread& thread, const Word& host, CallReply* reply);
  void ReplyOutputs(const stream::DecodedCall& call, Thread& thread, const std::vector<Word>& args,
                    const std::vector<size_t>& capacity, CallReply* reply);
  uint64_t StreamHandle(const Thread& thread, api::ObjectClass object, uint64_t host) const;
  // Object names a query wrote (bindings, attached shaders), host's -> the stream's.
  void NamesBackToStream(const stream::DecodedCall& call, Thread& thread, const std::vector<Word>& args,
                         CallReply* reply);
  void ReplyBytes(CallReply* reply, int param, const void* bytes, size_t size);

  // EGL objects (executor_egl.cpp).
  bool ExecuteEgl(const stream::DecodedCall& call, Thread& thread, bool* handled, Word* result, CallReply* reply);
  // eglChooseConfig / eglGetConfigs: recorded configs map by position; a
  // live client's (no recorded output) are the host configs' EGL_CONFIG_IDs.
  void AnswerConfigs(const stream::DecodedCall& call, int configs_param, int count_param,
                     const std::vector<EGLConfig>& host, EGLint count, CallReply* reply);
  EGLDisplay HostDisplay();
  EGLSurface HostSurface(uint64_t recorded);
  EGLConfig AnyConfig(int version);
  // The host config for a recorded one: of the same format when the trace
  // describes it, else the one eglChooseConfig put at the same position.
  EGLConfig HostConfig(uint64_t recorded, int version);
  // Whether a surface of `width` x `height` is within the largest the host
  // renders with `config` (else *why says so).
  bool SurfaceSizeFits(EGLConfig config, int64_t width, int64_t height, std::string* why);
  EGLConfig MatchingConfig(const std::vector<std::pair<int32_t, int32_t>>& format);

  // Client memory (executor_client_memory.cpp).
  void TrackPointerCall(const stream::DecodedCall& call, Thread& thread, const std::vector<Word>& args);
  void ApplyClientArrays(const stream::DecodedCall& call, Thread& thread);
  // A multi-draw's index arrays: with no element buffer bound on the host,
  // each recorded pointer must lie in the thread's memory records with all
  // its indices, and is given the host address of that copy. False (a
  // problem reported) when one does not.
  bool ResolveIndexArrays(const stream::DecodedCall& call, Thread& thread, std::vector<Word>& args);
  // A multi-draw's index arrays: where they lie in the thread's memory
  // records (nullptr for one that lies in none), or `in_buffer`, their
  // offsets into the element buffer.
  void IndexArraysOf(const stream::DecodedCall& call, const Thread& thread, bool in_buffer,
                     std::vector<const void*>* arrays);
  void TrackMapping(const stream::DecodedCall& call, Thread& thread, const Word& result);
  // The stream's name of the buffer bound at `target` on the host (0: none).
  uint64_t BoundBuffer(const Thread& thread, uint32_t target);
  // Whether a context of `context`'s share group has a buffer mapped; a
  // buffer's mapping forgotten in every one of them.
  bool AnyMapping(const Context& context) const;
  void ForgetMapping(const Context& context, uint64_t buffer);
  // After a wait for the GPU: the mappings made for reading, concatenated (empty without any).
  std::span<const uint8_t> MappedReads(const Thread& thread);
  void TrackBindings(const stream::DecodedCall& call, Thread& thread);

  // Storage (executor_storage.cpp): false when the call asks for more than the budget has left.
  bool WithinStorageBudget(const stream::DecodedCall& call, Thread& thread, const std::vector<Word>& args);
  // The storage a call of `slot` with host arguments `args` asks for
  // (*bytes), counted for the object bound in `context`; false, counting
  // nothing, when it would pass the budget.
  bool StorageFits(int slot, Context& context, const Word* args, uint64_t* bytes);
  // A generated handler's call that gives the bound buffer new storage
  // (FastCall::NewBufferStorage): counted as WithinStorageBudget counts it;
  // false, for Execute to run and report, when it passes the budget or a
  // buffer of the share group is mapped (new storage unmaps it, which
  // Execute follows).
  bool FastBufferStorage(Thread& thread, int slot, const Word* args);

  const HostDriver& driver_;
  SurfaceFactory& surfaces_;
  uint64_t draw_vertex_limit_ = UINT64_MAX;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  bool display_failed_ = false;
  std::unordered_map<uint32_t, Thread> threads_;
  Thread* last_thread_ = nullptr;
  uint32_t last_thread_id_ = 0;
  std::unordered_map<uint64_t, std::unique_ptr<Context>> contexts_;  // by recorded handle
  // Contexts whose recorded handle was reused by a later one: threads may still point at them.
  std::vector<std::unique_ptr<Context>> replaced_contexts_;
  std::unordered_map<uint64_t, Surface> recorded_surfaces_;
  std::unordered_map<uint64_t, std::pair<int, int>> surface_sizes_;
  std::unordered_map<uint64_t, std::vector<std::pair<int32_t, int32_t>>> config_formats_;
  std::unordered_map<uint64_t, EGLConfig> matched_configs_;
  NameMap egl_names_[static_cast<int>(api::ObjectClass::kCount)];
  uint64_t share_groups_ = 0;  // made so far (ShareGroup::serial)
  Scratch scratch_;
  std::vector<Word> generic_args_;  // reused: one call runs at a time
  std::vector<size_t> generic_capacity_;
  std::vector<size_t> sizes_;
  std::vector<int> output_params_;  // CheckBlobsAndSizeOutputs's, reused so that a call allocates nothing
  capture::DriverCaptureState capture_state_;  // the host's state, for the capture rules
  EGLint display_major_ = 0, display_minor_ = 0;
  uint64_t stream_display_ = 0;  // the display handle the stream uses, for replies
  // Recorded displays the stream got but has not initialized (or terminated
  // since): the host's display stays initialized for the whole stream.
  std::unordered_set<uint64_t> displays_seen_, displays_not_initialized_;
  std::map<std::string, std::pair<uint64_t, std::string>> problems_;  // function -> count, reason
  uint64_t skipped_ = 0;
  std::unique_ptr<StorageBudget> storage_;
};

}  // namespace strata::host
