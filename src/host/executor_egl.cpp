// EGL calls that cannot run as recorded: displays and windows of the traced
// process stand for the host's own, configs must suit the host's surfaces,
// and contexts carry the state the executor keeps per context.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "host/executor.h"
#include "strata/api/replay.h"
#include "strata/api/traits.h"

namespace strata::host {

using api::ObjectClass;

namespace {

constexpr int kDefaultWidth = 640, kDefaultHeight = 480;

std::vector<EGLint> IntAttribs(const stream::DecodedValue& v) {
  std::vector<EGLint> list;
  if (!v.has_in) return {EGL_NONE};
  for (size_t at = 0; at + sizeof(EGLint) <= v.in.size(); at += sizeof(EGLint)) {
    EGLint value;
    std::memcpy(&value, v.in.data() + at, sizeof value);
    list.push_back(value);
  }
  if (list.empty() || list.back() != EGL_NONE) list.push_back(EGL_NONE);
  return list;
}

// The value of `name` in an attribute list from IntAttribs (the last one
// given, as the driver reads a list), or `absent`.
EGLint AttribValue(const std::vector<EGLint>& attribs, EGLint name, EGLint absent) {
  EGLint value = absent;
  for (size_t i = 0; i + 1 < attribs.size() && attribs[i] != EGL_NONE; i += 2) {
    if (attribs[i] == name) value = attribs[i + 1];
  }
  return value;
}

// What a recorded call returned was a failure: EGL_FALSE, or no handle or string.
bool RecordedFailure(const stream::DecodedCall& call) {
  return call.has_reply && !call.result.has_out && call.result.u == 0;
}

}  // namespace

EGLDisplay Executor::HostDisplay() {
  if (display_ != EGL_NO_DISPLAY || display_failed_) return display_;
  std::string error;
  display_ = surfaces_.OpenDisplay(&error);
  EGLint major = 0, minor = 0;
  if (display_ == EGL_NO_DISPLAY ||
      !driver_.Get<PFNEGLINITIALIZEPROC>(api::eglInitialize)(display_, &major, &minor)) {
    display_failed_ = true;
    problems_["host display"] = {1, error.empty() ? "eglInitialize failed on the host display" : error};
    display_ = EGL_NO_DISPLAY;
  }
  display_major_ = major;
  display_minor_ = minor;
  return display_;
}

EGLConfig Executor::AnyConfig(int version) {
  EGLint renderable = version >= 3 ? EGL_OPENGL_ES3_BIT : version == 2 ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_ES_BIT;
  const EGLint attribs[] = {EGL_RENDERABLE_TYPE, renderable, EGL_SURFACE_TYPE, surfaces_.window_surface_bit(),
                            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                            EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  driver_.Get<PFNEGLCHOOSECONFIGPROC>(api::eglChooseConfig)(HostDisplay(), attribs, &config, 1, &count);
  return count > 0 ? config : nullptr;
}

bool Executor::SurfaceSizeFits(EGLConfig config, int64_t width, int64_t height, std::string* why) {
  // A config's EGL_MAX_PBUFFER_* is what it promises, not what the driver
  // renders (Mesa says 4096, llvmpipe draws 16384 wide): a surface up to
  // the larger of the two replays, as traces of wide displays need.
  constexpr EGLint kRenderedEverywhere = 16384;
  EGLint most_wide = 0, most_high = 0;
  auto attribute = driver_.Get<PFNEGLGETCONFIGATTRIBPROC>(api::eglGetConfigAttrib);
  if (config != nullptr) {
    attribute(HostDisplay(), config, EGL_MAX_PBUFFER_WIDTH, &most_wide);
    attribute(HostDisplay(), config, EGL_MAX_PBUFFER_HEIGHT, &most_high);
  }
  most_wide = std::max(most_wide, kRenderedEverywhere);
  most_high = std::max(most_high, kRenderedEverywhere);
  if (width <= most_wide && height <= most_high) return true;
  *why = "its size " + std::to_string(width) + "x" + std::to_string(height) + " is past the host's largest surface (" +
         std::to_string(most_wide) + "x" + std::to_string(most_high) + ")";
  return false;
}

EGLSurface Executor::HostSurface(uint64_t recorded) {
  if (recorded == 0) return EGL_NO_SURFACE;
  auto it = recorded_surfaces_.find(recorded);
  if (it == recorded_surfaces_.end()) return EGL_NO_SURFACE;
  Surface& surface = it->second;
  if (surface.host == EGL_NO_SURFACE && surface.stand_in && surface.host_config != nullptr) {
    auto size = surface_sizes_.find(recorded);
    int width = size != surface_sizes_.end() ? size->second.first : kDefaultWidth;
    int height = size != surface_sizes_.end() ? size->second.second : kDefaultHeight;
    if (size == surface_sizes_.end()) {
      problems_["surface size"] = {1, "a window surface's size is not in the trace; it is replayed at 640x480"};
    }
    std::string error;
    if (SurfaceSizeFits(surface.host_config, width, height, &error)) {
      surface.host = surfaces_.CreateWindowSurface(HostDisplay(), surface.host_config, width, height, &error);
    } else {
      error = "a window surface is not made: " + error;
    }
    surface.width = width;
    surface.height = height;
    if (surface.host == EGL_NO_SURFACE) {
      problems_["window surface"] = {1, error};
      surface.stand_in = false;  // do not try again for every call
    }
  }
  return surface.host;
}

void Executor::SetConfigFormat(uint64_t recorded_config, std::vector<std::pair<int32_t, int32_t>> attributes) {
  config_formats_[recorded_config] = std::move(attributes);
  matched_configs_.erase(recorded_config);
}

EGLConfig Executor::MatchingConfig(const std::vector<std::pair<int32_t, int32_t>>& format) {
  EGLDisplay display = HostDisplay();
  auto get_attrib = driver_.Get<PFNEGLGETCONFIGATTRIBPROC>(api::eglGetConfigAttrib);
  EGLint count = 0;
  driver_.Get<PFNEGLGETCONFIGSPROC>(api::eglGetConfigs)(display, nullptr, 0, &count);
  std::vector<EGLConfig> configs(static_cast<size_t>(std::max(count, 0)));
  driver_.Get<PFNEGLGETCONFIGSPROC>(api::eglGetConfigs)(display, configs.data(), count, &count);
  // Exact sizes first; then the same but any sample count.
  for (bool samples_matter : {true, false}) {
    for (EGLConfig config : configs) {
      bool match = true;
      for (auto [name, wanted] : format) {
        EGLint value = 0;
        if (!get_attrib(display, config, name, &value)) continue;
        switch (name) {
          case EGL_CONFIG_ID:
            break;  // another display numbers its configs its own way
          case EGL_SAMPLES:
          case EGL_SAMPLE_BUFFERS:
            match &= !samples_matter || value == wanted;
            break;
          case EGL_RENDERABLE_TYPE:
            match &= (value & wanted) == wanted;
            break;
          case EGL_SURFACE_TYPE: {
            EGLint needed = wanted & EGL_PBUFFER_BIT;
            if (wanted & (EGL_WINDOW_BIT | EGL_PIXMAP_BIT)) needed |= surfaces_.window_surface_bit();
            match &= (value & needed) == needed;
            break;
          }
          default:
            match &= value == wanted;
        }
        if (!match) break;
      }
      if (match) return config;
    }
  }
  return nullptr;
}

EGLConfig Executor::HostConfig(uint64_t recorded, int version) {
  if (auto it = matched_configs_.find(recorded); it != matched_configs_.end()) return it->second;
  EGLConfig config = nullptr;
  if (auto format = config_formats_.find(recorded); format != config_formats_.end()) {
    config = MatchingConfig(format->second);
    if (config == nullptr) {
      problems_["config"] = {1, "the host has no config of a format the trace uses; a similar one is used"};
    }
  }
  auto& positions = egl_names_[static_cast<int>(ObjectClass::kEglConfig)];
  if (config == nullptr && positions.Knows(recorded)) config = reinterpret_cast<EGLConfig>(positions.ToHost(recorded));
  if (config == nullptr) config = AnyConfig(version);
  matched_configs_[recorded] = config;
  return config;
}

void Executor::AnswerConfigs(const stream::DecodedCall& call, int configs_param, int count_param,
                             const std::vector<EGLConfig>& host, EGLint count, CallReply* reply) {
  NameMap& names = egl_names_[static_cast<int>(ObjectClass::kEglConfig)];
  const stream::DecodedValue& out = call.args[configs_param];
  std::vector<uint64_t> stream_configs;
  if (out.has_out) {
    // A trace: the recorded config at each position stands for the host's at that position.
    for (size_t i = 0; !host.empty() && (i + 1) * sizeof(void*) <= out.out.size(); ++i) {
      uint64_t recorded;
      std::memcpy(&recorded, out.out.data() + i * sizeof(void*), sizeof recorded);
      EGLConfig config = host[std::min(i, host.size() - 1)];
      names.Add(recorded, reinterpret_cast<uint64_t>(config));
      stream_configs.push_back(recorded);
    }
  } else {
    // A live client: a config is named by its EGL_CONFIG_ID, never by a host address.
    auto get_attrib = driver_.Get<PFNEGLGETCONFIGATTRIBPROC>(api::eglGetConfigAttrib);
    for (EGLConfig config : host) {
      EGLint id = 0;
      get_attrib(HostDisplay(), config, EGL_CONFIG_ID, &id);
      names.Add(static_cast<uint64_t>(id), reinterpret_cast<uint64_t>(config));
      matched_configs_.erase(static_cast<uint64_t>(id));
      stream_configs.push_back(static_cast<uint64_t>(id));
    }
  }
  if (reply == nullptr) return;
  if (out.u != 0) ReplyBytes(reply, configs_param, stream_configs.data(), stream_configs.size() * sizeof(uint64_t));
  if (call.args[count_param].u != 0) ReplyBytes(reply, count_param, &count, sizeof count);
}

void Executor::SetSurfaceSize(uint64_t recorded_surface, int width, int height) {
  surface_sizes_[recorded_surface] = {width, height};
  // A window that changed size mid-stream: its stand-in is made again at the
  // new size (contents are not kept, as a resized window's back buffer is not).
  auto it = recorded_surfaces_.find(recorded_surface);
  if (it == recorded_surfaces_.end()) return;
  Surface& surface = it->second;
  if (!surface.stand_in || surface.host == EGL_NO_SURFACE || (surface.width == width && surface.height == height)) {
    return;
  }
  std::string error;
  EGLSurface fresh = surfaces_.CreateWindowSurface(HostDisplay(), surface.host_config, width, height, &error);
  if (fresh == EGL_NO_SURFACE) {
    problems_["window surface"] = {1, error};
    return;
  }
  const EGLSurface old = surface.host;
  auto current_surface = driver_.Get<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface);
  const EGLSurface draw = current_surface(EGL_DRAW), read = current_surface(EGL_READ);
  if (draw == old || read == old) {
    driver_.Get<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent)(
        HostDisplay(), draw == old ? fresh : draw, read == old ? fresh : read,
        driver_.Get<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)());
  }
  // Current on another thread, it goes when that thread lets go of it.
  driver_.Get<PFNEGLDESTROYSURFACEPROC>(api::eglDestroySurface)(HostDisplay(), old);
  surface.host = fresh;
  surface.width = width;
  surface.height = height;
}

bool Executor::ExecuteEgl(const stream::DecodedCall& call, Thread& thread, bool* handled, Word* result,
                          CallReply* reply) {
  *handled = true;
  const auto& a = call.args;
  auto Recorded = [&](size_t i) { return a[i].u; };
  // A call on a display the stream had not initialized failed with
  // EGL_NOT_INITIALIZED; the host's display is, so it fails here alike.
  if (!displays_not_initialized_.empty() && call.slot != api::eglInitialize && call.slot != api::eglTerminate &&
      api::kFunctions[call.slot].param_count > 0 &&
      api::kReplay[call.slot].params[0].object == ObjectClass::kEglDisplay &&
      displays_not_initialized_.count(Recorded(0)) && RecordedFailure(call)) {
    result->u = 0;
    thread.refused_egl_error = EGL_NOT_INITIALIZED;
    return true;
  }
  switch (api::CoreOf(call.slot)) {  // an alias is its core
    case api::eglGetDisplay:
    case api::eglGetPlatformDisplay:
    case api::eglGetPlatformDisplayEXT:
      // A display the app's EGL did not open (no X server, an unknown
      // platform): the host's would, but the call fails as it did.
      if (RecordedFailure(call)) {
        result->p = EGL_NO_DISPLAY;
        return true;
      }
      if (call.has_reply && call.result.u != 0) {
        stream_display_ = call.result.u;
        if (displays_seen_.insert(call.result.u).second) displays_not_initialized_.insert(call.result.u);
      }
      result->p = HostDisplay();
      return HostDisplay() != EGL_NO_DISPLAY;
    case api::eglInitialize:
      if (!RecordedFailure(call)) displays_not_initialized_.erase(Recorded(0));
      result->u = HostDisplay() != EGL_NO_DISPLAY;
      if (reply && result->u) {
        if (a[1].u != 0) ReplyBytes(reply, 1, &display_major_, sizeof display_major_);
        if (a[2].u != 0) ReplyBytes(reply, 2, &display_minor_, sizeof display_minor_);
      }
      return result->u != 0;
    case api::eglTerminate:
      // The executor owns the display for the whole stream: objects the trace
      // made before terminating are destroyed with the executor.
      if (displays_seen_.count(Recorded(0))) displays_not_initialized_.insert(Recorded(0));
      result->u = EGL_TRUE;
      return true;
    case api::eglQueryDisplayAttribKHR: {
      // EGL_DEVICE_EXT answers a device, a host address: the recorded one
      // stands for it from now on, and a live client is never told it.
      const bool ok = RunGeneric(call, thread, result, reply);
      if (!ok || result->u == 0 || a[1].i != EGL_DEVICE_EXT || generic_args_[2].p == nullptr) return ok;
      auto* value = static_cast<EGLAttrib*>(generic_args_[2].p);
      NameMap& devices = egl_names_[static_cast<int>(ObjectClass::kEglDevice)];
      if (a[2].has_out && a[2].out.size() >= sizeof(uint64_t)) {
        uint64_t recorded;
        std::memcpy(&recorded, a[2].out.data(), sizeof recorded);
        devices.Add(recorded, static_cast<uint64_t>(*value));
      }
      *value = static_cast<EGLAttrib>(devices.ToRecorded(static_cast<uint64_t>(*value)));
      return ok;
    }
    case api::eglGetConfigs: {
      // At most as many as the host has, whatever count the stream asks for.
      EGLint count = 0;
      auto get_configs = driver_.Get<PFNEGLGETCONFIGSPROC>(api::eglGetConfigs);
      get_configs(HostDisplay(), nullptr, 0, &count);
      std::vector<EGLConfig> configs(static_cast<size_t>(std::clamp<int64_t>(std::min<int64_t>(a[2].i, count), 0, count)));
      if (a[1].u != 0 && !configs.empty()) get_configs(HostDisplay(), configs.data(), static_cast<EGLint>(configs.size()), &count);
      if (a[1].u != 0) count = static_cast<EGLint>(std::min<size_t>(static_cast<size_t>(std::max(count, 0)), configs.size()));
      result->u = EGL_TRUE;
      AnswerConfigs(call, 1, 3, configs, count, reply);
      return true;
    }
    case api::eglChooseConfig: {
      // Windows are replaced by the factory's surfaces: ask for configs those
      // suit. So are a trace's pixmaps; a live client (its call carries no
      // recorded answer) has none to offer (remote.md), so a config that
      // must back pixmaps is one the host has or none.
      const EGLint stood_in = call.has_reply ? (EGL_WINDOW_BIT | EGL_PIXMAP_BIT) : EGL_WINDOW_BIT;
      std::vector<EGLint> attribs = IntAttribs(a[1]);
      bool has_surface_type = false;
      for (size_t i = 0; i + 1 < attribs.size() && attribs[i] != EGL_NONE; i += 2) {
        if (attribs[i] == EGL_SURFACE_TYPE) {
          has_surface_type = true;
          if (attribs[i + 1] != EGL_DONT_CARE && (attribs[i + 1] & stood_in)) {
            attribs[i + 1] = (attribs[i + 1] & ~stood_in) | surfaces_.window_surface_bit();
          }
        }
      }
      if (!has_surface_type) attribs.insert(attribs.end() - 1, {EGL_SURFACE_TYPE, surfaces_.window_surface_bit()});
      // No display has more configs than this: a larger count from the stream asks for nothing more.
      constexpr int64_t kMostConfigs = 4096;
      EGLint wanted = static_cast<EGLint>(std::clamp<int64_t>(a[3].i, 1, kMostConfigs));
      std::vector<EGLConfig> configs(static_cast<size_t>(wanted));
      EGLint count = 0;
      EGLBoolean ok = driver_.Get<PFNEGLCHOOSECONFIGPROC>(api::eglChooseConfig)(
          HostDisplay(), attribs.data(), a[2].u != 0 || a[2].has_out ? configs.data() : nullptr, wanted, &count);
      result->u = ok;
      if (!ok || (count == 0 && a[2].has_out)) {
        Problem(call, "the host has no config with these attributes");
        return false;
      }
      configs.resize(a[2].u != 0 || a[2].has_out ? static_cast<size_t>(std::min(count, wanted)) : 0);
      AnswerConfigs(call, 2, 4, configs, count, reply);
      return true;
    }
    case api::eglCreatePbufferSurface: {
      // llvmpipe makes a pbuffer of any size, and its rasterizer then
      // writes past its tiles: one past the host's largest is refused.
      const std::vector<EGLint> attribs = IntAttribs(a[2]);
      const int64_t width = AttribValue(attribs, EGL_WIDTH, 0), height = AttribValue(attribs, EGL_HEIGHT, 0);
      std::string why;
      if (!SurfaceSizeFits(HostConfig(Recorded(1), 2), width, height, &why)) {
        Problem(call, why);
        result->p = EGL_NO_SURFACE;
        thread.refused_egl_error = EGL_BAD_ALLOC;
        return false;
      }
      *handled = false;
      return true;
    }
    case api::eglCreateWindowSurface:
    case api::eglCreatePlatformWindowSurface:
    case api::eglCreatePlatformWindowSurfaceEXT:
    case api::eglCreatePixmapSurface:
    case api::eglCreatePlatformPixmapSurface:
    case api::eglCreatePlatformPixmapSurfaceEXT: {
      // Made on first use: the surface's size arrives in a trace event after this call.
      if (!call.has_reply || call.result.u == 0) return true;
      result->u = call.result.u;  // stands for the surface made later
      Surface& surface = recorded_surfaces_[call.result.u];
      surface = Surface{};
      surface.stand_in = true;
      surface.host_config = HostConfig(Recorded(1), 2);
      return true;
    }
    case api::eglCreateContext: {
      std::vector<EGLint> attribs = IntAttribs(a[3]);
      const int version = AttribValue(attribs, EGL_CONTEXT_CLIENT_VERSION, 1);
      // A context the tracer met mid-run names a config the trace never chose.
      EGLConfig config = Recorded(1) != 0 ? HostConfig(Recorded(1), version) : nullptr;
      Context* share = nullptr;
      if (auto it = contexts_.find(Recorded(2)); Recorded(2) != 0 && it != contexts_.end()) share = it->second.get();
      EGLContext host = driver_.Get<PFNEGLCREATECONTEXTPROC>(api::eglCreateContext)(
          HostDisplay(), config, share ? share->host : EGL_NO_CONTEXT, attribs.data());
      if (host == EGL_NO_CONTEXT) {
        if (call.has_reply && call.result.u == 0) return true;  // it failed when traced, too
        Problem(call, "the host refused to create the context");
        return false;
      }
      auto context = std::make_unique<Context>();
      context->host = host;
      context->host_config = config;
      context->version = version;
      if (share) {
        context->shared = share->shared;
      } else {
        context->shared = std::make_shared<ShareGroup>();
        context->shared->serial = ++share_groups_;
      }
      result->p = host;
      if (call.has_reply && call.result.u != 0) {
        egl_names_[static_cast<int>(ObjectClass::kEglContext)].Add(call.result.u, reinterpret_cast<uint64_t>(host));
        std::unique_ptr<Context>& slot = contexts_[call.result.u];
        if (slot) replaced_contexts_.push_back(std::move(slot));
        slot = std::move(context);
      }
      return true;
    }
    case api::eglMakeCurrent: {
      uint64_t recorded_context = Recorded(3);
      Context* context = nullptr;
      if (auto it = contexts_.find(recorded_context); recorded_context != 0 && it != contexts_.end()) {
        context = it->second.get();
      }
      // A surface first seen here (a trace started mid-run) gets the context's config.
      for (size_t i : {1, 2}) {
        if (Recorded(i) != 0 && !recorded_surfaces_.count(Recorded(i)) && context) {
          Surface& surface = recorded_surfaces_[Recorded(i)];
          surface.stand_in = true;
          surface.host_config = context->host_config;
        }
      }
      EGLBoolean ok = driver_.Get<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent)(
          HostDisplay(), HostSurface(Recorded(1)), HostSurface(Recorded(2)), context ? context->host : EGL_NO_CONTEXT);
      if (!ok && (!call.has_reply || call.result.u != 0)) {
        Problem(call, "the host refused to make the context current");
        return false;
      }
      result->u = ok;
      if (ok) {
        thread.context = context ? recorded_context : 0;
        thread.current = context;
      }
      return true;
    }
    case api::eglReleaseThread:
      result->u = driver_.Get<PFNEGLRELEASETHREADPROC>(api::eglReleaseThread)();
      thread.context = 0;
      thread.current = nullptr;
      return true;
    case api::eglSwapBuffers:
    case api::eglSwapBuffersWithDamageKHR:
    case api::eglSwapBuffersWithDamageEXT: {
      if (before_swap) before_swap(call, Recorded(1));
      result->u = driver_.Get<PFNEGLSWAPBUFFERSPROC>(api::eglSwapBuffers)(HostDisplay(), HostSurface(Recorded(1)));
      return true;
    }
    case api::eglCreateImage:
    case api::eglCreateImageKHR: {
      // The client buffer of a GL image is an object name of the context named.
      uint64_t target = a[2].u;
      auto it = contexts_.find(Recorded(1));
      const ObjectClass object = GlImageSource(target);
      if (it == contexts_.end() || object == ObjectClass::kNone) {
        Problem(call, "only images of GL textures and renderbuffers can be replayed");
        return false;
      }
      std::vector<Word> args;
      std::vector<size_t> capacity;
      if (!BuildArguments(call, thread, &args, &capacity)) return false;
      args[3].u = it->second->shared->names[static_cast<int>(object)].ToHost(a[3].u);
      kInvokers[call.slot](driver_.Function(call.slot), args.data(), result);
      if (result->p == nullptr) {
        // Failing as the traced call failed is faithful.
        if (call.has_reply && call.result.u == 0) return true;
        Problem(call, "the host refused to create the image");
        return false;
      }
      if (call.has_reply) egl_names_[static_cast<int>(ObjectClass::kEglImage)].Add(call.result.u, result->u);
      return true;
    }
    default:
      *handled = false;
      return true;
  }
}

uint64_t Executor::CurrentShareGroup(uint32_t thread) {
  const Context* context = Current(ThreadOf(thread));
  return context ? context->shared->serial : 0;
}

uint64_t Executor::ShareGroupOf(uint64_t recorded_context) const {
  auto it = contexts_.find(recorded_context);
  return it == contexts_.end() || it->second->host == EGL_NO_CONTEXT ? 0 : it->second->shared->serial;
}

bool Executor::WithContextCurrent(uint32_t thread_id, uint64_t recorded_context, const std::function<void()>& work,
                                  std::string* error) {
  auto it = contexts_.find(recorded_context);
  if (it == contexts_.end() || it->second->host == EGL_NO_CONTEXT) {
    *error = "context " + std::to_string(recorded_context) + " does not exist on the host";
    return false;
  }
  auto make_current = driver_.Get<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent);
  auto current_surface = driver_.Get<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface);
  const EGLContext old_context = driver_.Get<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)();
  const EGLSurface old_draw = current_surface(EGL_DRAW), old_read = current_surface(EGL_READ);
  if (!make_current(HostDisplay(), EGL_NO_SURFACE, EGL_NO_SURFACE, it->second->host)) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%04X", driver_.Get<PFNEGLGETERRORPROC>(api::eglGetError)());
    *error = "the host cannot make context " + std::to_string(recorded_context) +
             " current without a surface (EGL error " + code + ")";
    return false;
  }
  Thread& thread = ThreadOf(thread_id);
  const uint64_t old_recorded = thread.context;
  Context* const old_current = thread.current;
  thread.context = recorded_context;
  thread.current = it->second.get();
  work();
  thread.context = old_recorded;
  thread.current = old_current;
  make_current(HostDisplay(), old_draw, old_read, old_context);
  return true;
}

}  // namespace strata::host
