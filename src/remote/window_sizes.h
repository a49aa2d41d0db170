#pragma once
// A window's host surface follows the window's size where a driver's back
// buffer does: not at the swap itself, but at the first draw, clear or blit
// into the surface after it (Mesa checks the drawable there), so a window resized between a
// swap and the next frame's first draw draws that frame at its new size, as
// natively; also at a size query (eglQuerySurface), which Mesa answers with
// the window's size. The tracer records the size at the same point
// (layers/trace/surface_sizes.h), so a remote run's frames match a native
// run's and a replay's.

#include <cstdint>
#include <memory>

namespace strata::present {
class WindowPresenter;
}

namespace strata::remote {

// After a window surface's swap: its size is looked at again before the
// thread's next draw, clear or blit.
void NoteWindowSwapped(uint64_t surface, std::shared_ptr<present::WindowPresenter> window);
// The window's new size, if it changed, goes to the renderer now.
void SendWindowSizeIfDue();
// Before a draw, clear or blit: when it draws into the surface (no
// framebuffer object bound to draw), SendWindowSizeIfDue.
void BeforeSurfaceWrite();

}  // namespace strata::remote
