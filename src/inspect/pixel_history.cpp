#include "inspect/pixel_history.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "common/gl_queries.h"
#include "common/uniform_types.h"
#include "host/executor.h"
#include "inspect/gl_state_reader.h"
#include "replay/replayer.h"
#include "stream/call_printer.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"
#include "strata/api/replay.h"

namespace strata::inspect {
namespace {

using api::ObjectClass;

// More images than this followed back are left out (and said so).
constexpr size_t kMaxTrackedImages = 64;

enum class WriteKind { kDraw, kClear, kBlit, kCopy };

// An image as the trace names it: the surface (by the host's handle, the
// same all through one replay), or a texture level and layer or a
// renderbuffer of a share group.
struct ImageKey {
  int kind = 0;  // ImageRef::Kind
  uint64_t group = 0, name = 0;
  GLenum target = GL_TEXTURE_2D;
  GLint level = 0, layer = 0;
  auto operator<=>(const ImageKey&) const = default;
};

// An image a call writes or reads, and how it is attached.
struct Attached {
  ImageKey image;
  GLenum point = GL_BACK;    // in the framebuffer the call draws through (GL_NONE: a copy's texture)
  uint64_t framebuffer = 0;  // the trace's name for it
};

struct WriteInfo {
  uint64_t sequence = 0;
  uint32_t thread = 0;
  WriteKind kind = WriteKind::kDraw;
  std::vector<Attached> writes;
  GLint viewport[4] = {};
  bool has_source = false;  // blits and copies: where they read
  Attached source;
  GLint src[4] = {}, dst[4] = {};  // blit rectangles (x0, y0, x1, y1); a copy's source and destination corners
  std::vector<ImageKey> sampled;   // draws: level 0 of the 2D textures their program samples
};

// A pixel of an image that ends up in the frame's pixel, for the calls before `until`.
struct Tracked {
  ImageKey image;
  int x = 0, y = 0;
  uint64_t until = 0;
  bool assumed = false;
  std::string via;
};

struct Candidate {
  Attached image;
  int x = 0, y = 0;
  bool assumed = false;
  std::string via;
};

std::string PointName(GLenum point) { return point == GL_NONE ? "" : EnumText(point); }

std::string ImageName(const ImageKey& key) {
  if (key.kind == static_cast<int>(ImageRef::Kind::kSurface)) return "the surface";
  if (key.kind == static_cast<int>(ImageRef::Kind::kRenderbuffer)) return "renderbuffer " + std::to_string(key.name);
  std::string name = "texture " + std::to_string(key.name) + " level " + std::to_string(key.level);
  if (key.target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && key.target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
    name += " face " + EnumText(key.target);
  } else if (key.target != GL_TEXTURE_2D) {
    name += " layer " + std::to_string(key.layer);
  }
  return name;
}

bool IsSwap(int slot) { return api::HasTrait(slot, api::kEndsFrame); }
bool IsBlit(int slot) { return api::CoreOf(slot) == api::glBlitFramebuffer; }
// Copies from the read framebuffer into a texture: the calls that read pixels and are neither a read
// into memory nor a blit (which writes a framebuffer) nor eglCopyBuffers (which writes a pixmap).
bool IsCopy(int slot) {
  const int core = api::CoreOf(slot);
  return api::HasTrait(slot, api::kReadsPixels) && !api::HasTrait(slot, api::kWritesFramebuffer) &&
         core != api::glReadPixels && core != api::glReadnPixels && core != api::eglCopyBuffers;
}
bool Is3dCopy(int slot) { return api::CoreOf(slot) == api::glCopyTexSubImage3D; }

// (x + 0.5) inside [a, b) whichever way round a and b are.
bool Inside(int x, int a, int b) {
  const double c = x + 0.5;
  return c >= std::min(a, b) && c < std::max(a, b);
}
// x in [a0, a1) mapped onto [b0, b1) (either may run backwards: a blit mirrors).
int MapAcross(int x, int a0, int a1, int b0, int b1) {
  const double t = (x + 0.5 - a0) / double(a1 - a0);
  return static_cast<int>(std::floor(b0 + t * (b1 - b0)));
}

// The host driver's functions the survey asks.
struct SurveyFunctions {
  explicit SurveyFunctions(const host::HostDriver& d) : gl(d) {
#define STRATA_LOAD(name) name = d.Get<decltype(name)>(api::gl##name)
    STRATA_LOAD(GetFramebufferAttachmentParameteriv);
    STRATA_LOAD(GetProgramiv);
    STRATA_LOAD(GetActiveUniform);
    STRATA_LOAD(GetUniformLocation);
    STRATA_LOAD(GetUniformiv);
    STRATA_LOAD(GetProgramInterfaceiv);
#undef STRATA_LOAD
    GetCurrentSurface = d.Get<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface);
    GetCurrentDisplay = d.Get<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay);
    QuerySurface = d.Get<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface);
  }
  GlFunctions gl;
  PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC GetFramebufferAttachmentParameteriv;
  PFNGLGETPROGRAMIVPROC GetProgramiv;
  PFNGLGETACTIVEUNIFORMPROC GetActiveUniform;
  PFNGLGETUNIFORMLOCATIONPROC GetUniformLocation;
  PFNGLGETUNIFORMIVPROC GetUniformiv;
  PFNGLGETPROGRAMINTERFACEIVPROC GetProgramInterfaceiv;  // GLES 3.1
  PFNEGLGETCURRENTSURFACEPROC GetCurrentSurface;
  PFNEGLGETCURRENTDISPLAYPROC GetCurrentDisplay;
  PFNEGLQUERYSURFACEPROC QuerySurface;
};

// What a program does that a draw run again would do twice, and which
// uniforms sample 2D textures, per host program (asked once per link).
struct ProgramFacts {
  std::vector<GLint> sampler_locations;
  bool writes_memory = false;  // storage blocks, atomic counters or images
};

ProgramFacts AskProgram(const SurveyFunctions& f, GLuint program, int version) {
  ProgramFacts facts;
  GLint count = 0, longest = 0;
  f.GetProgramiv(program, GL_ACTIVE_UNIFORMS, &count);
  f.GetProgramiv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &longest);
  std::string name(static_cast<size_t>(std::max(longest, 1)), '\0');
  for (GLint i = 0; i < count; ++i) {
    GLint size = 0;
    GLenum type = 0;
    GLsizei length = 0;
    f.GetActiveUniform(program, static_cast<GLuint>(i), static_cast<GLsizei>(name.size()), &length, &size, &type,
                       name.data());
    if (IsImageUniform(type)) facts.writes_memory = true;
    if (!IsTwoDimensionalSampler(type)) continue;
    const GLint location = f.GetUniformLocation(program, name.c_str());
    if (location >= 0) facts.sampler_locations.push_back(location);
  }
  if (version >= 31 && f.GetProgramInterfaceiv) {
    for (GLenum interface : {GLenum(GL_SHADER_STORAGE_BLOCK), GLenum(GL_ATOMIC_COUNTER_BUFFER)}) {
      GLint active = 0;
      f.GetProgramInterfaceiv(program, interface, GL_ACTIVE_RESOURCES, &active);
      if (active > 0) facts.writes_memory = true;
    }
  }
  f.gl.ClearErrors();
  return facts;
}

// The host's GLES version as major * 10 + minor.
int HostVersionOf(const GlFunctions& gl, int context_version) {
  if (context_version < 2) return 11;
  const char* text = reinterpret_cast<const char*>(gl.GetString(GL_VERSION));
  int major = 0, minor = 0;
  for (const char* p = text ? text : ""; *p; ++p) {
    if (*p >= '0' && *p <= '9' && std::sscanf(p, "%d.%d", &major, &minor) == 2) break;
  }
  return major * 10 + minor;
}

// Pass 1: what each call of the frame writes and reads.
class Survey {
 public:
  Survey(uint64_t frame) : frame_(frame) {}

  bool Before(host::Executor& executor, const stream::DecodedCall& call, uint64_t frame) {
    if (frame != frame_) return true;
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    const int version = executor.CurrentVersion(thread);
    if (version == 0) return true;
    if (!f_) f_ = std::make_unique<SurveyFunctions>(executor.driver());
    if (IsSwap(call.slot)) {
      swap_ = call.sequence;
      surface_ = reinterpret_cast<uint64_t>(f_->GetCurrentSurface(EGL_DRAW));
      EGLint width = 0, height = 0;
      f_->QuerySurface(f_->GetCurrentDisplay(), f_->GetCurrentSurface(EGL_DRAW), EGL_WIDTH, &width);
      f_->QuerySurface(f_->GetCurrentDisplay(), f_->GetCurrentSurface(EGL_DRAW), EGL_HEIGHT, &height);
      width_ = width;
      height_ = height;
      return true;
    }
    const bool draw = api::IsDraw(call.slot) || api::HasTrait(call.slot, api::kWritesFramebuffer), blit = IsBlit(call.slot), copy = IsCopy(call.slot);
    if (!draw && !blit && !copy) return true;
    host_version_ = HostVersionOf(f_->gl, version);
    WriteInfo info;
    info.sequence = call.sequence;
    info.thread = thread;
    info.kind = blit ? WriteKind::kBlit : copy ? WriteKind::kCopy : api::IsDraw(call.slot) ? WriteKind::kDraw
                                                                                              : WriteKind::kClear;
    f_->gl.GetIntegerv(GL_VIEWPORT, info.viewport);
    const uint64_t group = executor.CurrentShareGroup(thread);
    if (copy) {
      Copy(executor, call, thread, group, &info);
    } else {
      info.writes = DrawBuffers(executor, thread, group, call);
      if (blit && call.args.size() >= 10) {
        for (int i = 0; i < 4; ++i) info.src[i] = static_cast<GLint>(call.args[i].i);
        for (int i = 0; i < 4; ++i) info.dst[i] = static_cast<GLint>(call.args[4 + i].i);
        if (call.args[8].u & GL_COLOR_BUFFER_BIT) info.has_source = ReadBuffer(executor, thread, group, &info.source);
      }
      if (info.kind == WriteKind::kDraw && host_version_ >= 20) info.sampled = Sampled(executor, thread, group);
    }
    f_->gl.ClearErrors();
    writes_.push_back(std::move(info));
    return true;
  }

  // A relinked program is asked again.
  void Forget(GLint program) { programs_.erase(program); }

  uint64_t swap() const { return swap_; }
  uint64_t surface() const { return surface_; }
  int width() const { return width_; }
  int height() const { return height_; }
  const std::vector<WriteInfo>& writes() const { return writes_; }

 private:
  GLenum FramebufferTarget(bool read) const {
    return host_version_ >= 30 ? (read ? GL_READ_FRAMEBUFFER : GL_DRAW_FRAMEBUFFER) : GL_FRAMEBUFFER;
  }

  // What is attached at `point` of the bound framebuffer (draw or read).
  bool AttachmentAt(host::Executor& executor, uint32_t thread, uint64_t group, bool read, GLenum point, Attached* out) {
    const GLint bound = f_->gl.Integer(host_version_ >= 30 ? (read ? GL_READ_FRAMEBUFFER_BINDING : GL_DRAW_FRAMEBUFFER_BINDING)
                                                           : GL_FRAMEBUFFER_BINDING);
    out->point = point;
    if (bound == 0 || host_version_ < 20) {
      out->image.kind = static_cast<int>(ImageRef::Kind::kSurface);
      out->image.name = reinterpret_cast<uint64_t>(f_->GetCurrentSurface(read ? EGL_READ : EGL_DRAW));
      out->point = GL_BACK;
      return true;
    }
    out->framebuffer = executor.StreamName(thread, ObjectClass::kFramebuffer, static_cast<uint64_t>(bound));
    const GLenum target = FramebufferTarget(read);
    GLint type = GL_NONE, object = 0;
    f_->GetFramebufferAttachmentParameteriv(target, point, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type != GL_TEXTURE && type != GL_RENDERBUFFER) return false;
    f_->GetFramebufferAttachmentParameteriv(target, point, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &object);
    out->image.group = group;
    if (type == GL_RENDERBUFFER) {
      out->image.kind = static_cast<int>(ImageRef::Kind::kRenderbuffer);
      out->image.name = executor.StreamName(thread, ObjectClass::kRenderbuffer, static_cast<uint64_t>(object));
      return true;
    }
    out->image.kind = static_cast<int>(ImageRef::Kind::kTexture);
    out->image.name = executor.StreamName(thread, ObjectClass::kTexture, static_cast<uint64_t>(object));
    GLint level = 0, face = 0, layer = 0;
    f_->GetFramebufferAttachmentParameteriv(target, point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
    f_->GetFramebufferAttachmentParameteriv(target, point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &face);
    if (host_version_ >= 30) {
      f_->GetFramebufferAttachmentParameteriv(target, point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER, &layer);
    }
    out->image.level = level;
    out->image.layer = layer;
    out->image.target = face ? static_cast<GLenum>(face) : layer > 0 ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D;
    return true;
  }

  // The colour images a draw or clear writes: the draw buffers of the draw framebuffer.
  std::vector<Attached> DrawBuffers(host::Executor& executor, uint32_t thread, uint64_t group,
                                    const stream::DecodedCall& call) {
    std::vector<Attached> out;
    std::vector<GLenum> points;
    const bool surface = host_version_ < 20 || f_->gl.Integer(host_version_ >= 30 ? GL_DRAW_FRAMEBUFFER_BINDING
                                                                                  : GL_FRAMEBUFFER_BINDING) == 0;
    if (host_version_ >= 30) {
      const GLint buffers = std::min(f_->gl.Integer(GL_MAX_DRAW_BUFFERS), 16);
      for (GLint i = 0; i < buffers; ++i) {
        const GLint buffer = f_->gl.Integer(GL_DRAW_BUFFER0 + static_cast<GLenum>(i));
        if (buffer != GL_NONE) points.push_back(surface ? GL_BACK : static_cast<GLenum>(buffer));
      }
    } else {
      points.push_back(surface ? GL_BACK : GL_COLOR_ATTACHMENT0);
    }
    // glClearBuffer*(GL_COLOR, i, ...) clears draw buffer i alone.
    const bool clear_buffer = api::HasTrait(call.slot, api::kWritesFramebuffer) && !api::IsDraw(call.slot) &&
                              !IsBlit(call.slot) && api::CoreOf(call.slot) != api::glClear;  // glClearBuffer*
    if (clear_buffer && call.args.size() >= 2 && call.args[0].u == GL_COLOR) {
      const uint64_t index = call.args[1].u;
      const GLint buffer = host_version_ >= 30 ? f_->gl.Integer(GL_DRAW_BUFFER0 + static_cast<GLenum>(index)) : GL_NONE;
      points.clear();
      if (buffer != GL_NONE) points.push_back(surface ? GL_BACK : static_cast<GLenum>(buffer));
    }
    for (GLenum point : points) {
      Attached attached;
      if (AttachmentAt(executor, thread, group, false, point, &attached)) out.push_back(attached);
    }
    return out;
  }

  bool ReadBuffer(host::Executor& executor, uint32_t thread, uint64_t group, Attached* out) {
    const GLint buffer = host_version_ >= 30 ? f_->gl.Integer(GL_READ_BUFFER) : GL_COLOR_ATTACHMENT0;
    if (buffer == GL_NONE) return false;
    return AttachmentAt(executor, thread, group, true, static_cast<GLenum>(buffer), out);
  }

  void Copy(host::Executor& executor, const stream::DecodedCall& call, uint32_t thread, uint64_t group, WriteInfo* info) {
    const bool three_d = Is3dCopy(call.slot), sub = api::CoreOf(call.slot) != api::glCopyTexImage2D;
    if (call.args.size() < (three_d ? 9u : 8u)) return;
    const GLenum target = static_cast<GLenum>(call.args[0].u);
    GLenum binding = GL_TEXTURE_BINDING_2D;
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
      binding = GL_TEXTURE_BINDING_CUBE_MAP;
    } else if (target == GL_TEXTURE_2D_ARRAY) {
      binding = GL_TEXTURE_BINDING_2D_ARRAY;
    } else if (target == GL_TEXTURE_3D) {
      binding = GL_TEXTURE_BINDING_3D;
    }
    Attached dest;
    dest.point = GL_NONE;
    dest.image.kind = static_cast<int>(ImageRef::Kind::kTexture);
    dest.image.group = group;
    dest.image.name = executor.StreamName(thread, ObjectClass::kTexture, static_cast<uint64_t>(f_->gl.Integer(binding)));
    dest.image.level = static_cast<GLint>(call.args[1].i);
    dest.image.target = three_d ? GL_TEXTURE_2D_ARRAY : target;
    // Arguments: (target, level, [internalformat | xoffset, yoffset, [zoffset]], x, y, width, height, ...).
    size_t at = 2;
    GLint xoffset = 0, yoffset = 0;
    if (sub) {
      xoffset = static_cast<GLint>(call.args[at++].i);
      yoffset = static_cast<GLint>(call.args[at++].i);
      if (three_d) dest.image.layer = static_cast<GLint>(call.args[at++].i);
    } else {
      ++at;  // internalformat
    }
    const GLint x = static_cast<GLint>(call.args[at].i), y = static_cast<GLint>(call.args[at + 1].i);
    const GLint width = static_cast<GLint>(call.args[at + 2].i), height = static_cast<GLint>(call.args[at + 3].i);
    info->writes.push_back(dest);
    info->src[0] = x, info->src[1] = y, info->src[2] = x + width, info->src[3] = y + height;
    info->dst[0] = xoffset, info->dst[1] = yoffset, info->dst[2] = xoffset + width, info->dst[3] = yoffset + height;
    info->has_source = ReadBuffer(executor, thread, group, &info->source);
  }

  // Level 0 of the 2D textures the current program samples.
  std::vector<ImageKey> Sampled(host::Executor& executor, uint32_t thread, uint64_t group) {
    std::vector<ImageKey> out;
    const GLint program = f_->gl.Integer(GL_CURRENT_PROGRAM);
    if (program == 0) return out;
    auto it = programs_.find(program);
    if (it == programs_.end()) it = programs_.emplace(program, AskProgram(*f_, static_cast<GLuint>(program), host_version_)).first;
    const GLint active = f_->gl.Integer(GL_ACTIVE_TEXTURE);
    for (GLint location : it->second.sampler_locations) {
      GLint unit = 0;
      f_->GetUniformiv(static_cast<GLuint>(program), location, &unit);
      f_->gl.ActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
      const GLint texture = f_->gl.Integer(GL_TEXTURE_BINDING_2D);
      if (texture == 0) continue;
      ImageKey key;
      key.kind = static_cast<int>(ImageRef::Kind::kTexture);
      key.group = group;
      key.name = executor.StreamName(thread, ObjectClass::kTexture, static_cast<uint64_t>(texture));
      out.push_back(key);
    }
    f_->gl.ActiveTexture(static_cast<GLenum>(active));
    return out;
  }

  const uint64_t frame_;
  std::unique_ptr<SurveyFunctions> f_;
  int host_version_ = 20;
  std::map<GLint, ProgramFacts> programs_;
  std::vector<WriteInfo> writes_;
  uint64_t swap_ = 0, surface_ = 0;
  int width_ = 0, height_ = 0;
};

// From the frame's end back: which calls wrote a pixel that ends up in (x, y) of the surface.
std::map<uint64_t, std::vector<Candidate>> FollowBack(const std::vector<WriteInfo>& writes, const ImageKey& surface,
                                                       int x, int y, uint64_t swap, std::vector<std::string>* notes) {
  std::vector<Tracked> tracked = {{surface, x, y, swap, false, ""}};
  std::map<uint64_t, std::vector<Candidate>> candidates;
  bool capped = false;
  auto track = [&](const ImageKey& image, int tx, int ty, uint64_t until, bool assumed, const std::string& via) {
    for (Tracked& t : tracked) {
      if (t.image == image && t.x == tx && t.y == ty) {
        t.until = std::max(t.until, until);
        return;
      }
    }
    if (tracked.size() >= kMaxTrackedImages) {
      capped = true;
      return;
    }
    tracked.push_back({image, tx, ty, until, assumed, via});
  };
  auto written_before = [&](const ImageKey& image, uint64_t sequence) -> const WriteInfo* {
    const WriteInfo* last = nullptr;
    for (const WriteInfo& w : writes) {
      if (w.sequence >= sequence) break;
      for (const Attached& a : w.writes) {
        if (a.image == image) last = &w;
      }
    }
    return last;
  };
  for (auto w = writes.rbegin(); w != writes.rend(); ++w) {
    for (size_t t = 0; t < tracked.size(); ++t) {
      if (w->sequence >= tracked[t].until) continue;
      const Tracked target = tracked[t];  // tracked may grow below
      for (const Attached& a : w->writes) {
        if (a.image != target.image) continue;
        const bool blit_or_copy = w->kind == WriteKind::kBlit || w->kind == WriteKind::kCopy;
        if (blit_or_copy && (!Inside(target.x, w->dst[0], w->dst[2]) || !Inside(target.y, w->dst[1], w->dst[3]))) {
          continue;  // writes elsewhere
        }
        // A draw's fragments fall inside its viewport.
        const GLint* view = w->viewport;
        if (w->kind == WriteKind::kDraw &&
            (!Inside(target.x, view[0], view[0] + view[2]) || !Inside(target.y, view[1], view[1] + view[3]))) {
          continue;
        }
        candidates[w->sequence].push_back({a, target.x, target.y, target.assumed, target.via});
        if (blit_or_copy && w->has_source) {
          const int sx = MapAcross(target.x, w->dst[0], w->dst[2], w->src[0], w->src[2]);
          const int sy = MapAcross(target.y, w->dst[1], w->dst[3], w->src[1], w->src[3]);
          track(w->source.image, sx, sy, w->sequence, target.assumed,
                std::string(w->kind == WriteKind::kBlit ? "blitted" : "copied") + " by call " + std::to_string(w->sequence));
        }
        for (const ImageKey& sampled : w->kind == WriteKind::kDraw ? w->sampled : std::vector<ImageKey>{}) {
          const WriteInfo* source = written_before(sampled, w->sequence);
          if (source == nullptr) continue;  // not drawn in this frame: nothing to follow
          const GLint* to = w->viewport;
          const GLint* from = source->viewport;
          if (to[2] <= 0 || to[3] <= 0) continue;
          const int sx = MapAcross(target.x, to[0], to[0] + to[2], from[0], from[0] + from[2]);
          const int sy = MapAcross(target.y, to[1], to[1] + to[3], from[1], from[1] + from[3]);
          track(sampled, sx, sy, w->sequence, true, "sampled by call " + std::to_string(w->sequence));
        }
      }
    }
  }
  if (capped) notes->push_back("more than " + std::to_string(kMaxTrackedImages) + " images end up in the pixel: the rest are left out");
  return candidates;
}

// Pass 2: the pixel before and after each candidate call, and the tests of draws that left it as it was.
class Reading {
 public:
  Reading(uint64_t frame, const std::map<uint64_t, std::vector<Candidate>>& candidates, int x, int y, uint64_t swap,
          PixelHistory* history)
      : frame_(frame), candidates_(candidates), x_(x), y_(y), swap_(swap), history_(history) {}

  void Memory(uint32_t thread, uint64_t address, std::span<const uint8_t> bytes, uint64_t frame) {
    if (frame != frame_) return;
    pending_memory_[thread].push_back({address, std::vector<uint8_t>(bytes.begin(), bytes.end())});
  }

  bool Before(host::Executor& executor, const stream::DecodedCall& call, uint64_t frame) {
    if (frame != frame_) return true;
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    if (api::IsDraw(call.slot)) draw_memory_[thread] = std::exchange(pending_memory_[thread], {});
    if (call.sequence == swap_) {
      PixelProbe& probe = Probe(executor, thread);
      probe.ReadColor(ImageRef{}, x_, y_, &history_->final);
      probe.ReadDepthStencil(x_, y_, &history_->final);
      return true;
    }
    auto it = candidates_.find(call.sequence);
    if (it == candidates_.end()) return true;
    ++history_->calls_examined;
    PixelProbe& probe = Probe(executor, thread);
    befores_.clear();
    for (const Candidate& c : it->second) {
      PixelValue before;
      probe.ReadColor(Ref(executor, thread, c.image.image), c.x, c.y, &before);
      if (c.image.point != GL_NONE) probe.ReadDepthStencil(c.x, c.y, &before);
      befores_.push_back(before);
    }
    return true;
  }

  bool After(host::Executor& executor, const stream::DecodedCall& call, uint64_t frame) {
    if (frame != frame_) return true;
    auto it = candidates_.find(call.sequence);
    if (it == candidates_.end() || befores_.size() != it->second.size()) return true;
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    PixelProbe& probe = Probe(executor, thread);
    for (size_t i = 0; i < it->second.size(); ++i) {
      const Candidate& c = it->second[i];
      PixelEntry entry;
      entry.sequence = call.sequence;
      entry.thread = call.thread;
      entry.function = std::string(call.name);
      entry.text = stream::FormatCall(call);
      entry.target.surface = c.image.image.kind == static_cast<int>(ImageRef::Kind::kSurface);
      entry.target.framebuffer = c.image.framebuffer;
      entry.target.attachment = PointName(c.image.point);
      entry.target.image = ImageName(c.image.image);
      entry.target.x = c.x;
      entry.target.y = c.y;
      entry.target.assumed = c.assumed;
      entry.target.via = c.via;
      entry.before = befores_[i];
      probe.ReadColor(Ref(executor, thread, c.image.image), c.x, c.y, &entry.after);
      if (c.image.point != GL_NONE) probe.ReadDepthStencil(c.x, c.y, &entry.after);
      const bool color_changed = !entry.before.SameColor(entry.after);
      const bool depth_changed = !entry.before.SameDepth(entry.after);
      const bool stencil_changed = !entry.before.SameStencil(entry.after);
      entry.changed = color_changed || depth_changed || stencil_changed;
      if (!Judge(executor, call, probe, c, color_changed || depth_changed, stencil_changed, &entry)) continue;
      history_->entries.push_back(std::move(entry));
    }
    befores_.clear();
    return true;
  }

 private:
  PixelProbe& Probe(host::Executor& executor, uint32_t thread) {
    const uint64_t context = executor.CurrentContext(thread);
    auto& probe = probes_[context];
    if (!probe) probe = std::make_unique<PixelProbe>(executor.driver(), executor.CurrentVersion(thread));
    return *probe;
  }

  ImageRef Ref(host::Executor& executor, uint32_t thread, const ImageKey& key) {
    ImageRef ref;
    ref.kind = static_cast<ImageRef::Kind>(key.kind);
    if (ref.kind == ImageRef::Kind::kSurface) return ref;
    const ObjectClass object = ref.kind == ImageRef::Kind::kTexture ? ObjectClass::kTexture : ObjectClass::kRenderbuffer;
    ref.name = static_cast<GLuint>(executor.HostName(thread, object, key.name));
    ref.target = key.target;
    ref.level = key.level;
    ref.layer = key.layer;
    return ref;
  }

  // Whether the call reached the pixel (an entry), and how it fared.
  bool Judge(host::Executor& executor, const stream::DecodedCall& call, PixelProbe& probe, const Candidate& c,
             bool wrote, bool stencil_changed, PixelEntry* entry) {
    if (!api::IsDraw(call.slot)) {
      // Clears, blits and copies reach every pixel of their area but where the scissor test stops them
      // (copies ignore it); a blit or copy elsewhere was never a candidate.
      const bool scissored = !IsCopy(call.slot) && probe.Enabled(GL_SCISSOR_TEST);
      if (scissored && !probe.InsideScissor(c.x, c.y)) {
        if (entry->changed) return Passed(entry);
        entry->outcome = "rejected";
        entry->rejected_by = "scissor";
        return true;
      }
      return Passed(entry);
    }
    if (wrote) return Passed(entry);  // a fragment got through every test and wrote
    if (probe.RasterizerDiscards()) return false;
    const std::string why = probe.WhyNotTestable();
    const std::string writes_memory = why.empty() ? WritesMemory(executor, call, probe) : "";
    if (!why.empty() || !writes_memory.empty()) {
      const std::string reason = why.empty() ? writes_memory : why;
      if (std::find(untested_why_.begin(), untested_why_.end(), reason) == untested_why_.end()) {
        untested_why_.push_back(reason);
        history_->notes.push_back("draws that left the pixel as it was are left out, not run again to test them: " + reason);
      }
      if (!stencil_changed) return false;
      entry->outcome = "untested";
      entry->note = reason;
      return true;
    }
    // Run the draw again on what it met: the pixel's depth and stencil as they were before it.
    const bool restore = stencil_changed && c.image.point != GL_NONE;
    if (restore) probe.WriteDepthStencil(c.x, c.y, entry->before);
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    const FragmentVerdict verdict = probe.Test(c.x, c.y, [&] {
      for (const auto& [address, bytes] : draw_memory_[thread]) executor.WriteMemory(thread, address, bytes);
      executor.Execute(call);
    });
    if (restore) probe.WriteDepthStencil(c.x, c.y, entry->after);
    ++history_->draws_tested;
    switch (verdict) {
      case FragmentVerdict::kNoFragment:
        if (!entry->changed) return false;  // it never reached the pixel
        entry->outcome = "passed";
        entry->note = "no fragment of it reaches the pixel when run again, yet the pixel changed";
        return true;
      case FragmentVerdict::kScissor:
        entry->outcome = "rejected";
        entry->rejected_by = "scissor";
        return true;
      case FragmentVerdict::kStencil:
        entry->outcome = "rejected";
        entry->rejected_by = "stencil";
        return true;
      case FragmentVerdict::kDepth:
        entry->outcome = "rejected";
        entry->rejected_by = "depth";
        return true;
      case FragmentVerdict::kPassed:
        entry->outcome = "passed";
        entry->note = probe.ColorMaskedOff() ? "the colour mask kept its colour out"
                                             : "its colour left the pixel as it was (blending, or the same colour)";
        return true;
    }
    return true;
  }

  static bool Passed(PixelEntry* entry) {
    entry->outcome = "passed";
    return true;
  }

  // Why running the draw's program again would do its memory writes twice, or "".
  std::string WritesMemory(host::Executor& executor, const stream::DecodedCall&, PixelProbe& probe) {
    const GLint program = probe.Integer(GL_CURRENT_PROGRAM);
    if (program == 0) return {};
    auto it = programs_.find(program);
    if (it == programs_.end()) {
      if (!survey_functions_) survey_functions_ = std::make_unique<SurveyFunctions>(executor.driver());
      it = programs_.emplace(program, AskProgram(*survey_functions_, static_cast<GLuint>(program), 31)).first;
    }
    return it->second.writes_memory ? "the program writes memory (storage blocks, atomic counters or images)" : "";
  }

  const uint64_t frame_;
  const std::map<uint64_t, std::vector<Candidate>>& candidates_;
  const int x_, y_;
  const uint64_t swap_;
  PixelHistory* history_;
  std::map<uint64_t, std::unique_ptr<PixelProbe>> probes_;  // per recorded context
  std::vector<PixelValue> befores_;                        // of the candidate call running now
  using Regions = std::vector<std::pair<uint64_t, std::vector<uint8_t>>>;
  std::map<uint32_t, Regions> pending_memory_, draw_memory_;  // per thread: memory records of its next draw, of this draw
  std::map<GLint, ProgramFacts> programs_;
  std::unique_ptr<SurveyFunctions> survey_functions_;
  std::vector<std::string> untested_why_;
};

}  // namespace

bool BuildPixelHistory(const std::string& trace, const PixelHistoryOptions& options, PixelHistory* history,
                       std::string* error) {
  *history = PixelHistory{};
  history->frame = options.frame;
  history->x = options.x;
  history->y = options.y;
  replay::ReplayOptions base;
  base.strata_lib_dir = options.strata_lib_dir;
  base.check = false;
  base.first_frame = options.frame;
  base.last_frame = options.frame;

  // Pass 1: the survey.
  Survey survey(options.frame);
  replay::ReplayOptions first = base;
  replay::ReplayOptions::CallHooks survey_hooks;
  survey_hooks.before = [&](host::Executor& executor, const stream::DecodedCall& call, uint64_t frame, std::string*) {
    return survey.Before(executor, call, frame);
  };
  survey_hooks.after = [&](host::Executor& executor, const stream::DecodedCall& call, uint64_t, std::string*) {
    if (api::HasTrait(call.slot, api::kLinksProgram) && !call.args.empty()) {  // the program's locations change
      survey.Forget(static_cast<GLint>(executor.HostName(static_cast<uint32_t>(call.thread), ObjectClass::kProgram,
                                                         call.args[0].u)));
    }
    return true;
  };
  first.hooks.push_back(survey_hooks);
  replay::ReplayResult result;
  if (!replay::Replay(trace, first, &result, error)) return false;
  if (survey.swap() == 0) {
    *error = "the trace has no frame " + std::to_string(options.frame) + " (it has " + std::to_string(result.frame_ends) +
             " frame" + (result.frame_ends == 1 ? "" : "s") + ", counting from 0, each ending at an eglSwapBuffers)";
    return false;
  }
  history->swap = survey.swap();
  history->width = survey.width();
  history->height = survey.height();
  if (options.x < 0 || options.y < 0 || options.x >= survey.width() || options.y >= survey.height()) {
    *error = "pixel " + std::to_string(options.x) + "," + std::to_string(options.y) + " is off frame " +
             std::to_string(options.frame) + "'s surface, which is " + std::to_string(survey.width()) + "x" +
             std::to_string(survey.height());
    return false;
  }
  history->gl_x = options.x;
  history->gl_y = survey.height() - 1 - options.y;
  ImageKey surface;
  surface.kind = static_cast<int>(ImageRef::Kind::kSurface);
  surface.name = survey.surface();
  const auto candidates =
      FollowBack(survey.writes(), surface, history->gl_x, history->gl_y, survey.swap(), &history->notes);

  // Pass 2: the readings, up to the frame's swap.
  Reading reading(options.frame, candidates, history->gl_x, history->gl_y, survey.swap(), history);
  replay::ReplayOptions second = base;
  second.stop_before_call = survey.swap() + 1;
  replay::ReplayOptions::CallHooks reading_hooks;
  reading_hooks.memory = [&](uint32_t thread, uint64_t address, std::span<const uint8_t> bytes, uint64_t frame) {
    reading.Memory(thread, address, bytes, frame);
  };
  reading_hooks.before = [&](host::Executor& executor, const stream::DecodedCall& call, uint64_t frame, std::string*) {
    return reading.Before(executor, call, frame);
  };
  reading_hooks.after = [&](host::Executor& executor, const stream::DecodedCall& call, uint64_t frame, std::string*) {
    return reading.After(executor, call, frame);
  };
  second.hooks.push_back(reading_hooks);
  replay::ReplayResult second_result;
  return replay::Replay(trace, second, &second_result, error);
}

namespace {

void WriteValue(JsonWriter& json, const PixelValue& value) {
  json.BeginObject();
  if (value.color_kind != ColorKind::kNone) {
    json.Key("color").BeginArray();
    for (double c : value.color) {
      if (value.color_kind == ColorKind::kFloat) {
        json.Double(c);
      } else {
        json.Int(static_cast<int64_t>(c));
      }
    }
    json.EndArray();
    static constexpr const char* kKinds[] = {"", "rgba8", "float", "int", "uint"};
    json.Key("color_type").String(kKinds[static_cast<int>(value.color_kind)]);
  } else {
    json.Key("color_unread").String(value.color_unread);
  }
  if (value.has_depth) json.Key("depth").Double(value.depth);
  if (value.has_stencil) json.Key("stencil").UInt(value.stencil);
  if (!value.depth_stencil_unread.empty()) json.Key("depth_stencil_unread").String(value.depth_stencil_unread);
  json.EndObject();
}

}  // namespace

void WritePixelHistoryJson(const PixelHistory& history, JsonWriter& json) {
  json.BeginObject();
  json.Key("frame").UInt(history.frame).Key("x").Int(history.x).Key("y").Int(history.y);
  json.Key("gl_x").Int(history.gl_x).Key("gl_y").Int(history.gl_y);
  json.Key("surface").BeginObject().Key("width").Int(history.width).Key("height").Int(history.height).EndObject();
  json.Key("swap").UInt(history.swap).Key("final");
  WriteValue(json, history.final);
  json.Key("entries").BeginArray();
  for (const PixelEntry& e : history.entries) {
    json.BeginObject().Key("call").UInt(e.sequence).Key("thread").UInt(e.thread).Key("function").String(e.function);
    json.Key("text").String(e.text).Key("target").BeginObject();
    json.Key("surface").Bool(e.target.surface);
    if (!e.target.surface || e.target.framebuffer) json.Key("framebuffer").UInt(e.target.framebuffer);
    if (!e.target.attachment.empty()) json.Key("attachment").String(e.target.attachment);
    json.Key("image").String(e.target.image).Key("x").Int(e.target.x).Key("y").Int(e.target.y);
    json.Key("position").String(e.target.assumed ? "assumed" : "exact");
    if (!e.target.via.empty()) json.Key("via").String(e.target.via);
    json.EndObject().Key("before");
    WriteValue(json, e.before);
    json.Key("after");
    WriteValue(json, e.after);
    json.Key("outcome").String(e.outcome);
    if (!e.rejected_by.empty()) json.Key("rejected_by").String(e.rejected_by);
    json.Key("changed").Bool(e.changed);
    if (!e.note.empty()) json.Key("note").String(e.note);
    json.EndObject();
  }
  json.EndArray().Key("notes").BeginArray();
  for (const std::string& note : history.notes) json.String(note);
  json.EndArray().EndObject();
}

std::string PixelHistoryText(const PixelHistory& h) {
  std::string out = "pixel " + std::to_string(h.x) + "," + std::to_string(h.y) + " of frame " + std::to_string(h.frame) +
                    " (" + std::to_string(h.width) + "x" + std::to_string(h.height) + " surface; GL window coordinates " +
                    std::to_string(h.gl_x) + "," + std::to_string(h.gl_y) + "): " + std::to_string(h.entries.size()) +
                    (h.entries.size() == 1 ? " call" : " calls") + " reached it\n";
  for (const PixelEntry& e : h.entries) {
    out += "call " + std::to_string(e.sequence) + " " + e.text + "\n    on " + e.target.image;
    if (!e.target.surface) {
      if (e.target.framebuffer) out += " (framebuffer " + std::to_string(e.target.framebuffer) + " " + e.target.attachment + ")";
      out += " at " + std::to_string(e.target.x) + "," + std::to_string(e.target.y);
    }
    if (!e.target.via.empty()) out += ", " + e.target.via + (e.target.assumed ? " (position assumed)" : "");
    out += "\n    " + DescribeColor(e.before) + " -> " + DescribeColor(e.after) + ": ";
    if (e.outcome == "rejected") {
      out += "rejected by the " + e.rejected_by + " test";
    } else if (e.outcome == "passed") {
      out += api::IsDraw(api::FindFunction(e.function.c_str())) ? "passed" : "written";
      if (!e.changed) out += ", no change";
    } else {
      out += e.outcome;
    }
    if (!e.note.empty()) out += " (" + e.note + ")";
    out += "\n";
  }
  out += "frame " + std::to_string(h.frame) + " ends (call " + std::to_string(h.swap) + ") with " + DescribeColor(h.final) + "\n";
  for (const std::string& note : h.notes) out += "note: " + note + "\n";
  return out;
}

}  // namespace strata::inspect
