#include "layers/trace/surface_sizes.h"

#include <mutex>
#include <unordered_map>

#include "layers/trace/call_writer.h"
#include "layers/trace/next_functions.h"
#include "layers/trace/trace_session.h"

namespace strata::trace {
namespace {

struct RecordedSize {
  uint32_t session = 0;  // the trace it was recorded in (an attach starts another)
  EGLint width = 0, height = 0;
  bool made_current = false;
};

std::mutex g_mu;
// The window and pixmap surfaces whose size the trace holds; pbuffers never
// change size and are not in it.
std::unordered_map<EGLSurface, RecordedSize> g_sizes;

bool QuerySize(EGLDisplay dpy, EGLSurface surface, EGLint* width, EGLint* height) {
  auto query = Next<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface);
  return query(dpy, surface, EGL_WIDTH, width) && query(dpy, surface, EGL_HEIGHT, height);
}

// Records `surface`'s size if it is one the trace describes and the size changed.
void RecordIfResized(EGLDisplay dpy, EGLSurface surface, bool first_current_only) {
  const uint32_t session = TraceSession::Get().session_number();
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = g_sizes.find(surface);
    if (it == g_sizes.end() || it->second.session != session) return;
    if (first_current_only && it->second.made_current) return;
    it->second.made_current = true;
  }
  EGLint width = 0, height = 0;
  if (!QuerySize(dpy, surface, &width, &height)) return;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    RecordedSize& recorded = g_sizes[surface];
    if (recorded.width == width && recorded.height == height) return;
    recorded.width = width;
    recorded.height = height;
  }
  EmitSurfaceInfo(reinterpret_cast<uintptr_t>(surface), width, height);
}

}  // namespace

void DescribeSurface(EGLDisplay dpy, EGLSurface surface) {
  EGLint width = 0, height = 0;
  if (surface == EGL_NO_SURFACE || !QuerySize(dpy, surface, &width, &height)) return;
  const bool current = surface == Next<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_DRAW) ||
                       surface == Next<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_READ);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_sizes[surface] = {TraceSession::Get().session_number(), width, height, current};
  }
  EmitSurfaceInfo(reinterpret_cast<uintptr_t>(surface), width, height);
}

void ForgetSurface(EGLSurface surface) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_sizes.erase(surface);
}

bool RecordedSurfaceSize(EGLSurface surface, EGLint* width, EGLint* height) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_sizes.find(surface);
  if (it == g_sizes.end()) return false;
  *width = it->second.width;
  *height = it->second.height;
  return true;
}

void NoteSurfacesCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read) {
  if (draw != EGL_NO_SURFACE) RecordIfResized(dpy, draw, true);
  if (read != EGL_NO_SURFACE && read != draw) RecordIfResized(dpy, read, true);
}

void RecordSurfaceResize() {
  t_locals.surface_size_due = false;
  EGLSurface surface = Next<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_DRAW);
  if (surface == EGL_NO_SURFACE) return;
  RecordIfResized(Next<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)(), surface, false);
}

}  // namespace strata::trace
