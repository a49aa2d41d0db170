#include "remote/window_sizes.h"

#include <atomic>

#include "present/window_presenter.h"
#include "remote/generated_support.h"

namespace strata::remote {
namespace {

// The window the thread swapped last, while its size is still to be looked at.
struct DueWindow {
  uint64_t surface = 0;
  std::shared_ptr<present::WindowPresenter> window;
};
thread_local DueWindow t_due;
// Whether any thread swapped a window: until then no thread has a size due,
// and a draw need not look at t_due (a thread_local of a shared library
// costs a call to __tls_get_addr). Never cleared.
std::atomic<bool> g_window_swapped{false};

}  // namespace

void NoteWindowSwapped(uint64_t surface, std::shared_ptr<present::WindowPresenter> window) {
  t_due = {surface, std::move(window)};
  g_window_swapped.store(true, std::memory_order_relaxed);
}

void SendWindowSizeIfDue() {
  if (t_due.window == nullptr) [[likely]] return;
  const DueWindow due = std::move(t_due);
  t_due = {};
  Connection* c = ThreadConnection();
  if (c != nullptr && due.window->Resized()) c->PutSurfaceEvent(due.surface, due.window->width(), due.window->height());
}

void BeforeSurfaceWrite() {
  if (!g_window_swapped.load(std::memory_order_relaxed) || t_due.window == nullptr) [[likely]] return;
  Connection* c = ThreadConnectionHolding();
  if (c != nullptr && c->shadow().draw_framebuffer() == 0) SendWindowSizeIfDue();
}

void Before_eglQuerySurface(EGLDisplay, EGLSurface surface, EGLint attribute, EGLint*) {
  if ((attribute == EGL_WIDTH || attribute == EGL_HEIGHT) && reinterpret_cast<uint64_t>(surface) == t_due.surface) {
    SendWindowSizeIfDue();
  }
}

}  // namespace strata::remote
