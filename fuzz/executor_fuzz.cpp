// The executor (host/executor.h) behind replay and the renderer: decoded
// calls run on the host's GL (llvmpipe). Every blob must be checked against
// the size its call's arguments imply and every object name mapped or
// refused before the driver sees it; a driver crash here is a finding of
// ours, since the executor chose to make the call. The input is a run of
// records (calls, memory records, trace events) with this build's function
// ids; each input gets a fresh executor, so nothing carries over. Half the
// inputs (by length) run through the handlers generated per function, half
// of those from the calls kept decoded, as replay's loops from memory run.
#include <EGL/egl.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "host/host_driver.h"
#include "host/record_dispatch.h"
#include "host/surface_factory.h"
#include "stream/record_reader.h"
#include "stream/record_store.h"
#include "stream/slack_reader.h"

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const stream::FunctionTable& functions = fuzz::OwnFunctions();
  const host::HostDriver& driver = fuzz::Driver();
  std::unique_ptr<host::SurfaceFactory> surfaces = host::MakePbufferSurfaceFactory(driver);
  host::RecordDispatch dispatch(driver, *surfaces, functions, host::HostThreads::kCaller);
  dispatch.executor().SetDrawLimit(fuzz::kDrawVertexLimit);
  // Replies are made as for a live client, so the reply code runs on the same calls.
  dispatch.on_reply = [](const stream::DecodedCall&, const host::CallReply&) {};
  // Inputs of odd length run the calls that have one through their generated
  // handlers (host/fast_call.h), as replay and the renderer do; those of even
  // length run every call through Execute. By length modulo 4: 3, kept and
  // decoded first; 1, a renderer's loop over a message's records.
  if (size % 2 == 1) dispatch.HookSlots([](int) { return false; });
  stream::Record record;
  std::string error;
  size_t at = 0;
  const std::span<const uint8_t> bytes(data, size);
  if (size % 4 == 3) {
    // Kept and decoded once first (stream/record_store.h), as for replay's later loops.
    stream::RecordStore store(size_t{64} << 20);
    while (stream::NextRecordIn(bytes, &at, &record, &error)) {
      record.thread_id = 1;
      record.chunk = 0;
      store.Keep(record);
    }
    store.PrepareCalls(functions, host::RecordDispatch::Handles);
    stream::StoredRecords stored(store);
    while (stored.Next(&record)) {
      if (!dispatch.Dispatch(record, &error)) break;
    }
  } else if (size % 4 == 1) {
    // As a renderer runs a message: the records the handlers take in one
    // loop, each record it stops at dispatched, and the loop again after it.
    // By length modulo 8: 1, the message with the renderer's slack after it
    // (its records read in place, reads past one's end caught at most the
    // slack away); 5, with none (each record copied before its handler).
    std::vector<uint8_t> padded(size + (size % 8 == 1 ? stream::SlackReader::kSlackBytes : 0));
    std::memcpy(padded.data(), data, size);
    const std::span<const uint8_t> message(padded.data(), size);
    while (true) {
      if (!dispatch.RunHandledIn(message, padded.size(), &at, 1, 0, true, &error)) break;
      if (!stream::NextRecordIn(message, &at, &record, &error)) break;
      record.thread_id = 1;
      record.chunk = 0;
      if (!dispatch.DispatchUnhandled(record, &error)) break;
    }
  } else {
    while (stream::NextRecordIn(bytes, &at, &record, &error)) {
      record.thread_id = 1;
      record.chunk = 0;
      if (!dispatch.Dispatch(record, &error)) break;  // a malformed record ends a stream, as in replay
    }
  }
  // As the renderer does when a client leaves: a context still current here
  // would outlive the executor's eglDestroyContext, and every input's would pile up.
  EGLDisplay display = driver.Get<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)();
  if (display != EGL_NO_DISPLAY) {
    driver.Get<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent)(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  }
  driver.Get<PFNEGLRELEASETHREADPROC>(api::eglReleaseThread)();
  return 0;
}
