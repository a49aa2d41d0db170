#!/usr/bin/env python3
"""Breaks Strata on purpose, one line at a time, and checks the tests notice.

Each breakage below is a file, a line pattern that must occur exactly once,
and its replacement. For each: the line is changed in the working tree, the
build directory is brought up to date (ninja rebuilds only what depends on
the file), the tests named for it run, and the file is put back. The table
at the end says which tests caught each breakage; a breakage no test caught,
or one that did not build, makes the exit status 1. docs/testing.md shows
the table of the last full run.

usage: scripts/break_on_purpose.py [--build-dir DIR] [--only NAME[,NAME...]] [--list] [--markdown]

The files it changes must have no uncommitted changes; they are restored
even when the run is interrupted, and the build is brought back up to date
at the end.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, part, file, pattern, replacement, ctest regex of the tests that should catch it)
BREAKAGES = [
    ("out-pointer data recorded empty", "tracer",
     "src/layers/trace/call_writer.h",
     "void OutBlob(const void* p, SizeFn size) { InBlob(p, size); }",
     "void OutBlob(const void* p, SizeFn size) { (void)size; InBlob(p, [] { return size_t{0}; }); }",
     r"trace\.TracedPrograms\.PointerData"),
    ("attached trace's made-up context of the wrong client version", "tracer",
     "src/layers/trace/trace_hooks.cpp",
     "const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, version, EGL_NONE};",
     "const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, version + 1, EGL_NONE};",
     r"trace\.AttachDetach\.Traceable"),
    ("thumbnails built by replay zero-filled", "view",
     "src/view/replayed_images.cpp",
     "full.rgba = FlipRows(image.pixels, full.width, full.height);",
     "full.rgba.assign(image.pixels.size(), 0);",
     r"view\.ViewThumbnails"),
    ("layers left out of the dispatch table", "loader",
     "src/loader/layer_chain.cpp",
     "      top->entries[slot] = entry;",
     "      top->entries[slot] = next;",
     r"^layers\.Layers\.(ThreeStacked|CallCounter)"),
    ("error check layer never reports", "layers",
     "src/layers/error_check/error_check_layer.cpp",
     "    if (error == GL_NO_ERROR) return;",
     "    if (error == GL_NO_ERROR || true) return;",
     r"^layers\.Layers\.ErrorCheck"),
    ("error the tracer took at a swap not given back to the app", "tracer",
     "src/layers/trace/app_errors.cpp",
     "  if (taken == GL_NO_ERROR) return from_driver;",
     "  if (taken == GL_NO_ERROR || true) return from_driver;",
     r"replay\.Replay\.AnErrorLeftAtASwap"),
    ("no final frame captured", "tracer",
     "src/layers/trace/final_frame.cpp",
     "  if (!CaptureFinalFrame() || CurrentContextState() == nullptr || !Tracing()) return;",
     "  return;",
     r"replay\.Replay\.FinalFrame"),
    ("replay's self-check misses an error the app never met", "executor",
     "src/replay/self_check.cpp",
     '    Differ(first.sequence, first.function, "no GL error (" + where + ")", GlErrorText(first.code), first.first);',
     "    (void)first;",
     r"^replay\.Replay\.SelfCheck"),
    ("writes to a mapped buffer dropped on replay", "executor",
     "src/host/executor_client_memory.cpp",
     "        std::memcpy(range.host + (address - range.recorded), bytes.data(), bytes.size());",
     "        (void)range;",
     r"^replay\.Headless/SampleAppReplay\.VerifiesEveryCapturedFramebuffer/gles3_instanced"),
    ("recorded object names used as host names", "executor",
     "src/host/object_names.h",
     "    if (host != kNone) return host;",
     "    if (host != kNone) return recorded;",
     r"^replay\.Replay\.(SelfCheck|FinalFrame)"),
    ("gltrace functions numbered one off", "export",
     "src/export/gltrace_export.cpp",
     "      if (GLMessage::Function_Parse(api::kFunctions[slot].name, &number)) numbers_[slot] = number;",
     "      if (GLMessage::Function_Parse(api::kFunctions[slot].name, &number)) numbers_[slot] = GLMessage::Function(number + 1);",
     r"^export\.gltrace"),
    ("Chrome JSON times in nanoseconds instead of microseconds", "export",
     "src/export/chrome_json_export.cpp",
     "  AppendInt(out, ns / 1000);",
     "  AppendInt(out, ns);",
     r"^export\.chrome"),
    ("captured frame images left bottom row first", "view",
     "src/view/captured_images.cpp",
     "entry.image.rgba = FlipRows(captured.pixels, entry.image.width, entry.image.height);",
     "entry.image.rgba.assign(captured.pixels.begin(), captured.pixels.end());",
     r"^view\.ViewThumbnails"),
    ("EGL handles compared by address in strata diff", "inspect",
     "src/inspect/call_identity.cpp",
     "    case ArgKind::kHandle: return Combine(key, Handle(v.u));",
     "    case ArgKind::kHandle: return Combine(key, v.u);",
     r"^inspect\.DiffCommand"),
    ("strata diff ignores float arguments", "inspect",
     "src/inspect/call_identity.cpp",
     "      return Combine(key, bits);",
     "      return key;",
     r"^inspect\.DiffCommand\.OneChangedUniform"),
    ("strata state's texture images left bottom row first", "inspect",
     "src/inspect/gl_state.cpp",
     "    if (!WritePng(path, width, height, rgba, true, error)) return {};",
     "    if (!WritePng(path, width, height, rgba, false, error)) return {};",
     r"^inspect\.StateCommand\.ATexturesImage"),
    ("strata state's float uniforms left unread", "inspect",
     "src/inspect/gl_state.cpp",
     "        if (scalar == UniformScalar::kFloat) uniform_f(program_, location, f);",
     "        if (scalar == UniformScalar::kFloat) (void)uniform_f;",
     r"^inspect\.StateCommand\.TheTintedDraw"),
    ("strata diff never finds a pixel that differs", "inspect",
     "src/inspect/image_diff.cpp",
     "    Compare(a, b, stored.width, stored.height, options.tolerance.threshold, &difference, &marked);",
     "    Compare(a, b, stored.width, stored.height, 255, &difference, &marked);",
     r"^inspect\.DiffCommand\.ImagesDiffer"),
    ("trim drops the range's memory records", "trim",
     "src/trim/trace_trim.cpp",
     "        for (const auto& bytes : memory) out.Raw(stream::RecordType::kMemory, bytes, thread);",
     "        (void)memory;",
     r"^inspect\.TrimCommand\.Gles1Frames"),
    # The snapshot (src/snapshot/), one row per group of state; the round
    # trip names the state that differs.
    ("snapshot: capabilities all disabled", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "      if (GetError() == GL_NO_ERROR) Enable(capability.value, on);",
     "      if (GetError() == GL_NO_ERROR) Enable(capability.value, false && on);",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: no glBlendColor", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "    calls_.Add(api::glBlendColor).Float(f[0]).Float(f[1]).Float(f[2]).Float(f[3]);",
     "    (void)f;",
     r"^inspect\.snapshot_round_trip\.gles[23]$"),
    ("snapshot: pixel store left at the defaults", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "      calls_.Add(api::glPixelStorei).Arg(pname.value).Arg(one(pname.value));",
     "      (void)pname;",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: textures bound at no unit", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "        calls_.Add(api::glBindTexture).Arg(target.target).Arg(static_cast<int64_t>(Stream(ObjectClass::kTexture, bound)));",
     "        calls_.Add(api::glBindTexture).Arg(target.target).Arg(0);",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: samplers bound at no unit", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "          calls_.Add(api::glBindSampler).Arg(unit).Arg(static_cast<int64_t>(Stream(ObjectClass::kSampler, sampler)));",
     "          (void)sampler;",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: indexed buffer ranges start at 0", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "        calls_.Add(api::glBindBufferRange).Arg(target.target).Arg(i).Arg(name).Arg(start).Arg(size);",
     "        calls_.Add(api::glBindBufferRange).Arg(target.target).Arg(i).Arg(name).Arg(0).Arg(size);",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: texture parameters of integers left out", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "            calls_.Add(api::glTexParameteri).Arg(target).Arg(parameter.pname).Arg(value);",
     "            (void)value;",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: sampler parameters of integers left out", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "          calls_.Add(api::glSamplerParameteri).Arg(static_cast<int64_t>(name)).Arg(parameter.pname).Arg(value);",
     "          (void)value;",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: 3D and array textures one layer deep", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "      calls_.Add(api::glTexStorage3D).Arg(target).Arg(*levels).Arg(internal).Arg(width).Arg(height).Arg(depth);",
     "      calls_.Add(api::glTexStorage3D).Arg(target).Arg(*levels).Arg(internal).Arg(width).Arg(height).Arg(1);",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: unsigned uniforms left at 0", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "            F<PFNGLGETUNIFORMUIVPROC>(api::glGetUniformuiv)(host, location, values);",
     "            break;",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: vertex attribute divisors left at 0", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "      if (divisor != 0) calls_.Add(api::glVertexAttribDivisor).Arg(i).Arg(divisor);",
     "      (void)divisor;",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: current attribute values left at (0, 0, 0, 1)", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "      calls_.Add(api::glVertexAttrib4fv).Arg(i).In(value, sizeof value);",
     "      (void)value;",
     r"^inspect\.snapshot_round_trip\.gles[23]$"),
    ("snapshot: renderbuffers attached at color 0", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "          calls_.Add(api::glFramebufferRenderbuffer).Arg(GL_FRAMEBUFFER).Arg(point).Arg(GL_RENDERBUFFER)",
     "          calls_.Add(api::glFramebufferRenderbuffer).Arg(GL_FRAMEBUFFER).Arg(GL_COLOR_ATTACHMENT0).Arg(GL_RENDERBUFFER)",
     r"^inspect\.snapshot_round_trip\.gles[23]$"),
    ("snapshot: transform feedback objects without their buffers", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "      if (is_transform_feedback(static_cast<GLuint>(host))) objects.emplace_back(name, host);  // bound once",
     "      (void)is_transform_feedback;",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: query names not made", "snapshot",
     "src/snapshot/context_snapshot.cpp",
     "      Generate(api::glGenQueries, name);",
     "      (void)name;",
     r"^inspect\.snapshot_round_trip\.gles3$"),
    ("snapshot: GLES 1.1 lights left at the defaults", "snapshot",
     "src/snapshot/gles1_snapshot.cpp",
     "        calls_.Add(api::glLightfv).Arg(name).Arg(parameter.pname).In(values, sizeof(GLfloat) * parameter.count);",
     "        (void)values;",
     r"^inspect\.snapshot_round_trip\.gles1$"),
    ("snapshot: GLES 1.1 matrix stacks one deep", "snapshot",
     "src/snapshot/gles1_snapshot.cpp",
     "      if (level > 0) calls_.Add(api::glPushMatrix);",
     "      if (level < 0) calls_.Add(api::glPushMatrix);",
     r"^inspect\.snapshot_round_trip\.gles1$"),
    ("snapshot: GLES 1.1 texture environments left at the defaults", "snapshot",
     "src/snapshot/gles1_snapshot.cpp",
     "        calls_.Add(api::glTexEnvi).Arg(GL_TEXTURE_ENV).Arg(pname).Arg(value);",
     "        (void)value;",
     r"^inspect\.snapshot_round_trip\.gles1$"),
    ("snapshot: GLES 1.1 client arrays all disabled", "snapshot",
     "src/snapshot/gles1_snapshot.cpp",
     "    calls_.Add(enabled ? api::glEnableClientState : api::glDisableClientState).Arg(q.array);",
     "    calls_.Add(enabled && false ? api::glEnableClientState : api::glDisableClientState).Arg(q.array);",
     r"^inspect\.snapshot_round_trip\.gles1$"),
    ("snapshot: GLES 1.1 fog mode left at the default", "snapshot",
     "src/snapshot/gles1_snapshot.cpp",
     "    calls_.Add(api::glFogf).Arg(GL_FOG_MODE).Float(one(GL_FOG_MODE));",
     "    (void)one;",
     r"^inspect\.snapshot_round_trip\.gles1$"),
    # The renderer: these lines are the handshake's, the listener's session
    # routing and the ring's own checks (re-point them if serve/ or transport/ move).
    ("a thread joins a session with any key", "renderer",
     "src/serve/server.cpp",
     "      } else if (!transport::TokensEqual(key, route->second.key)) {",
     "      } else if (key.empty() && !transport::TokensEqual(key, route->second.key)) {",
     r"^serve\.Serve\.AThreadJoinsOnly"),
    ("a client of another protocol version served", "renderer",
     "src/serve/handshake.cpp",
     "  if (version != wire::kProtocolVersion) {",
     "  if (version != wire::kProtocolVersion && false) {",
     r"^serve\.Serve\.RefusesAnotherProtocolVersion"),
    ("a TCP client served without the token", "renderer",
     "src/serve/handshake.cpp",
     "  if (std::string why = CheckClient(peer, out->hello, auth); !why.empty()) {",
     "  if (std::string why = CheckClient(peer, out->hello, auth); false) {",
     r"^serve\.Serve\.TcpClientsNeedTheToken"),
    ("a ring's write position past its end trusted", "renderer",
     "src/transport/shm_ring.cpp",
     "  if (available > size_) {",
     "  if (available > size_ && false) {",
     r"^transport\.Ring\.ServerSurvivesAClientThatScribbles"),
    ("a forked child keeps its parent's descriptors open", "remote client",
     "src/remote/session.cpp",
     "  for (Connection* connection : parent->connections_) connection->LetGoInForkedChild();",
     "  (void)0;",
     r"^remote\.Remote\.AKilledParent"),
    ("a forked child keeps its parent's process connection open", "remote client",
     "src/remote/session.cpp",
     "  parent->process_stream_.reset();",
     "  (void)0;",
     r"^remote\.Remote\.AKilledParent"),
    ("a forked child keeps its parent's renderer connection", "remote client",
     "src/remote/session.cpp",
     "  if (!parent->started() || parent->lost()) return;",
     "  return;",
     r"^remote\.Remote\.AForkedChild"),
    ("a resting preparing thread not woken by the next message", "renderer",
     "src/serve/message_preparer.cpp",
     "  resting_.store(false, std::memory_order_relaxed);\n  begun_.fetch_add(1, std::memory_order_release);\n"
     "  begun_.notify_one();",
     "  resting_.store(false, std::memory_order_relaxed);\n  begun_.fetch_add(1, std::memory_order_release);",
     r"^serve\.MessagePreparer\."),
    ("a sleeping writer woken at every message read", "renderer",
     "src/transport/shm_ring.cpp",
     "std::min<size_t>(size_, std::max<size_t>(n, size_ / kWakeWriterAtRingPart));",
     "std::min<size_t>(size_, n);",
     r"^transport\.Ring\.SleepingWriterIsWokenOnce"),
    # The executor's generated handlers (host/fast_call.h, api/emit_executor.py).
    ("a handler's draw takes client memory it does not put in place", "executor handlers",
     "src/host/fast_call.h",
     "  bool DrawReadsBuffersOnly() { return x_.FastDrawReady(thread_); }",
     "  bool DrawReadsBuffersOnly() { return true; }",
     r"^(replay\.|trace\.AliasDraws)"),
    ("a handler's shared object names not mapped", "executor handlers",
     "src/host/fast_call.h",
     "      return context_->shared->names[static_cast<int>(Object)].ToHost(recorded);",
     "      return recorded;",
     r"^(replay\.|inspect\.TrimCommand)"),
    ("a handler's input array not sized", "executor handlers",
     "src/host/executor_checks.cpp",
     "  return sizes_[param] != kNoRule && size >= sizes_[param];",
     "  return true;",
     r"^replay\.Replay\.RefusesAUniformArrayShorterThanItsCount$"),
    ("a handler's new buffer storage not counted by the budget", "executor handlers",
     "src/host/executor_storage.cpp",
     "  return !AnyMapping(*context) && (!storage_ || StorageFits(slot, *context, args, &bytes));",
     "  (void)slot, (void)args, (void)bytes;\n  return !AnyMapping(*context);",
     r"^remote\.Remote\.StoragePastTheClientMemoryBudget"),
    ("a handler's new buffer storage leaves the old mapping", "executor handlers",
     "src/host/executor_storage.cpp",
     "  return !AnyMapping(*context) && (!storage_ || StorageFits(slot, *context, args, &bytes));",
     "  return !storage_ || StorageFits(slot, *context, args, &bytes);",
     r"^remote\.Remote\.NewStorageForAMappedBuffer"),
    ("a null input array handed to the driver", "executor",
     "src/host/executor_checks.cpp",
     "      if (sizes_[i] > 0) {",
     "      if (false) {",
     r"^remote\.Remote\.ANullArray"),
    ("a null string handed to the driver", "executor",
     "src/host/executor_checks.cpp",
     "      if (rp.string && info.return_kind == api::ArgKind::kVoid) {",
     "      if (false) {",
     r"^remote\.Remote\.ANullArray"),
    ("a null GL gives a meaning refused", "executor",
     "src/host/executor_checks.cpp",
     "      if (capture != Capture::kIn || args[i].p != nullptr || rp.null_allowed || rp.offset_without_data) continue;",
     "      if (capture != Capture::kIn || args[i].p != nullptr || rp.offset_without_data) continue;",
     r"^(remote\.Remote\.(ANullArray|StoragePast)|replay\.)"),
    ("a buffer range whose end wraps run by Execute", "executor",
     "src/host/executor.cpp",
     "    if (api::RangeEndOverflows(call.args[range[0]].i, call.args[range[1]].i)) {",
     "    if (false) {",
     r"^remote\.Remote\.ABufferRangeWhoseEndWraps"),
    ("a buffer range whose end wraps run by a generated handler", "executor handlers",
     "api/emit_executor.py",
     '    return "".join(f"  if (api::RangeEndOverflows({offset}, {size})) return strata_call.Refuse();\\n"',
     '    return "".join(f"  if (false && api::RangeEndOverflows({offset}, {size})) return strata_call.Refuse();\\n"',
     r"^remote\.Remote\.ABufferRangeWhoseEndWraps"),
    ("a range draw run with its arguments out of place", "executor",
     "src/host/executor.cpp",
     "  const Word without[5] = {args[0], args[p.count], args[p.type], args[p.indices], base_vertex ? args[p.base_vertex] : Word{}};",
     "  const Word without[5] = {args[0], args[1], args[p.type], args[p.indices], base_vertex ? args[p.base_vertex] : Word{}};",
     r"^replay\.Replay\.RangeDrawsDrawAsTheSameDrawsWithoutTheirRange$"),
    ("a file descriptor of the traced process handed to the driver", "executor",
     "api/emit_replay.py",
     'FILE_DESCRIPTOR_PARAMS = {"fd"}',
     "FILE_DESCRIPTOR_PARAMS = set()",
     r"^replay\.Replay\.RefusesAFileDescriptorOfTheTracedProcess$"),
    ("a surface wider than the host renders made", "executor",
     "src/host/executor_egl.cpp",
     "  if (width <= most_wide && height <= most_high) return true;",
     "  return true;",
     r"^replay\.Replay\.RefusesAPbufferWiderThanTheHostRenders$"),
    ("bindings a handler ran not followed", "executor handlers",
     "src/host/executor.cpp",
     "  if (traits.tracks_state) FollowBinding(*context, api::CoreOf(slot), first, second);",
     "  (void)first, (void)second;",
     r"^(replay\.|piglit\.List/Piglit\.ReplayDrawsWhatWasTraced|inspect\.|x11\.real_apps\.)"),
    ("a program's uniform-location table made unseen by contexts", "executor",
     "src/host/executor.cpp",
     "    if (made) ForgetLocationTables(*context->shared);",
     "    (void)made;",
     r"^replay\.Replay\.(AProgramRebuilt|UniformLocations)"),
    ("a deleted program's uniform-location table kept by contexts", "executor",
     "src/host/executor.cpp",
     "  if (object == ObjectClass::kProgram && context->shared->uniform_locations.erase(recorded) != 0) {\n"
     "    ForgetLocationTables(*context->shared);",
     "  if (object == ObjectClass::kProgram && context->shared->uniform_locations.erase(recorded) != 0) {\n"
     "    (void)0;",
     r"^replay\.Replay\.(AProgramRebuilt|UniformLocations)"),
    ("errors of calls run unseen left to the next glGetError", "executor handlers",
     "src/replay/self_check.cpp",
     "  TakeHostErrors(context, next_sequence - 1, \"\");",
     "  (void)next_sequence;",
     r"^(replay\.Replay\.(SelfCheck|AnErrorLeft)|trace\.CapturedMultisampling)"),
    # Frame ranges traced while the program runs (src/layers/trace/frame_range.h).
    ("a frame range begun a frame late", "tracer",
     "src/layers/trace/frame_range.cpp",
     "  if (left != 1) return;",
     "  if (left != 0) return;",
     r"^trace\.FrameRange\."),
    ("a frame range ended a frame late", "tracer",
     "src/layers/trace/frame_range.cpp",
     "  if (frame + 1 < g_frames.load()) return;",
     "  if (frame < g_frames.load()) return;",
     r"^trace\.FrameRange\."),
    ("the snapshot's own reading framebuffer recorded as the app's", "tracer",
     "src/snapshot/context_snapshot.cpp",
     "      if (read_framebuffer_ != 0 && host == read_framebuffer_) continue;  // the snapshot's own, for reading images",
     "      (void)read_framebuffer_;",
     r"^trace\.FrameRange\.ThreadsJoiningAtOnce"),
    ("strata trace ends on SIGTERM, leaving the program and its files", "tracer",
     "src/tools/trace_command.cpp",
     "  signal(SIGTERM, PassSignalOn);",
     "  (void)PassSignalOn;",
     r"^trace\.TraceCommand\.EndedAndKilled"),
    # The renderer's worker processes (docs/remote.md, "The process model").
    ("a client's later thread handed to no worker", "renderer workers",
     "src/serve/server.cpp",
     "        worker = route->second.worker;",
     "        worker = 0;",
     r"^remote\.Workers\.ThreeThreadsOfOneClientShareItsWorker$"),
    ("a handed-over ring resumed at its start", "renderer workers",
     "src/transport/stream_handoff.cpp",
     "  stream->ResumeAt(taken.read_position, taken.write_position);",
     "  stream->ResumeAt(0, taken.write_position);",
     r"^remote\.Shapes/FourClients\.EachGetsTheNativeFrame/cheap "),
    ("a killed worker's end not told to its client", "renderer workers",
     "src/serve/server.cpp",
     "        fates[worker.session] = {route->second.key, normal && !worker.ended.empty() ? worker.ended : who + \" \" + how};",
     "        (void)normal;",
     r"^remote\.Workers\.AKilledWorkerEndsOnlyItsClient$"),
    ("a warm worker handed to a client of another kind", "renderer workers",
     "src/serve/worker_pool.cpp",
     "      if (w.state != Worker::State::kIdle || w.ending || (w.warm && !own_user)) continue;",
     "      if (w.state != Worker::State::kIdle || w.ending || (w.warm && !own_user && false)) continue;",
     r"^remote\.Workers\.AWorkerServesTheNextClient"),
    ("workers started from the program that replaced the renderer's", "renderer workers",
     "src/serve/worker_pool.cpp",
     "  return same ? path : kSelf;",
     "  return (void)same, path;",
     r"^remote\.Workers\.ARendererWhoseProgramWasReplaced"),
    ("calls decoded ahead stop at a blob in a bulk segment", "renderer decoding ahead",
     "src/serve/message_preparer.cpp",
     "  if (bulk_threshold != 0) preparer_.SetBulkThreshold(bulk_threshold);",
     "  (void)bulk_threshold;",
     r"^serve\.MessagePreparer\."),
    ("a run of calls decoded ahead handed out call by call again", "renderer decoding ahead",
     "src/serve/message_preparer.cpp",
     "      next_entry_ += records;",
     "      next_entry_ += 1;",
     r"^serve\.MessagePreparer\.|^remote\.Shapes/DecodingAhead\."),
    ("--decode-ahead off not passed to the workers", "renderer decoding ahead",
     "src/serve/server.cpp",
     '                                     options.decode_ahead ? "on" : "off"};',
     '                                     "on"};',
     r"^remote\.Shapes/DecodingAhead\."),
    ("EXT_memory_object's UUIDs counted as 16 integers", "GL knowledge",
     "api/parameters.txt",
     "GL_DEVICE_UUID_EXT                get  ubyte  16 GL_EXT_memory_object",
     "GL_DEVICE_UUID_EXT                get  int    16 GL_EXT_memory_object",
     r"^trace\.capture_sizes\.CaptureSizesTest\.(GetValueCountByName|EveryPname)"),
    ("GLES 1.1's spot direction counted as one value", "GL knowledge",
     "api/parameters.txt",
     "GL_SPOT_DIRECTION                 light  float  3  es1  state",
     "GL_SPOT_DIRECTION                 light  float  1  es1  state",
     r"^trace\.capture_sizes\.CaptureSizesTest\.EveryPname"),
    ("a display the app's EGL could not open opened on replay", "replay",
     "src/host/executor_egl.cpp",
     "        result->p = EGL_NO_DISPLAY;",
     "        result->p = HostDisplay();",
     r"^replay\.Replay\.ADisplayTheAppCouldNotOpenDoesNotOpenOnReplay$"),
    ("a robust context never told of the lost renderer", "remote",
     "src/remote/connection.cpp",
     "      return told ? GL_UNKNOWN_CONTEXT_RESET : GL_NO_ERROR;",
     "      return GL_NO_ERROR;",
     r"^remote\.Workers\.AKilledWorkerEndsOnlyItsClient$"),
    ("a program that lost its renderer left to draw nothing", "remote",
     "src/remote/session.cpp",
     "  std::exit(kRendererLostStatus);",
     "  g_exiting.store(false);",
     r"^remote\.Workers\.AKilledWorkerEndsOnlyItsClient$"),
    ("loops from memory keep no calls", "replay",
     "src/stream/record_store.cpp",
     "  store_.Keep(*record);",
     "  if (record->type != RecordType::kCall) store_.Keep(*record);",
     r"^replay\.Replay\.LoopsAfterTheFirstRunFromMemory$"),
    ("the renderer's loop over a message loses the call its handler refused", "remote",
     "src/host/record_dispatch.cpp",
     "        !RunOneHandled(call, payload, thread, chunk)) {",
     "        !RunOneHandled(call, payload, thread, chunk)) {\n"
     "      if (record.type == stream::RecordType::kCall) next = after;",
     r"^remote\.Remote\.ClientArraysBesideABoundBufferMatchNative$"),
    ("a word run's call its handler refused dropped", "remote",
     "src/host/record_dispatch.cpp",
     "    stream::DecodeWordCall(arguments - 1, entry.slot, functions.NameOf(id), sequence, record.thread_id, run, &call_);",
     "    continue;",
     r"^remote\.Shapes/FourClients\.EachGetsTheNativeFrame/|^remote\.Shapes/DecodingAhead\."),
    ("the call records after a word run numbered from before it", "remote",
     "src/host/record_dispatch.cpp",
     "  decoder_.TakeCall(record.thread_id, record.chunk, sequence - 1, run.start_ns);",
     "  (void)0;",
     r"^serve\.Serve\.WordRunsRunTheirCallsAndMalformedOnesCloseOnlyThatClient$"),
    ("a word run's call of another argument count run", "remote",
     "src/stream/word_run.h",
     "  if (at->u >> 32 != arity) {  // an array's bytes, or a malformed call",
     "  if (arity == kNotInRuns) {",
     r"^serve\.Serve\.WordRunsRunTheirCallsAndMalformedOnesCloseOnlyThatClient$|^stream\.WordRun\."),
    ("a word run's call of a function runs may not hold run", "remote",
     "src/stream/word_run.h",
     "  return slot >= 0 && kWordCalls[slot] ? api::kFunctions[slot].param_count : kNotInRuns;",
     "  return slot >= 0 ? api::kFunctions[slot].param_count : kNotInRuns;",
     r"^serve\.Serve\.WordRunsRunTheirCallsAndMalformedOnesCloseOnlyThatClient$|^stream\.WordRun\."),
    ("the client's word run left open under the next record", "remote",
     "src/remote/connection.h",
     "    EndWordRun();\n    return batch_;",
     "    return batch_;",
     r"^remote\.Shapes/FourClients\.EachGetsTheNativeFrame/draws"),
    ("a word run's array read from the wrong place", "remote",
     "src/stream/word_run.h",
     "  return {reinterpret_cast<const uint8_t*>(arguments + count), static_cast<size_t>(array_bytes)};",
     "  return {reinterpret_cast<const uint8_t*>(arguments + count - 1), static_cast<size_t>(array_bytes)};",
     r"^serve\.Serve\.WordRunsRunTheirCallsAndMalformedOnesCloseOnlyThatClient$|^remote\.Shapes/DecodingAhead\.DrawsTheNativeFrame/matrices"),
    ("a word run's array not skipped to the next call", "remote",
     "src/host/record_dispatch.cpp",
     "    at = arguments + words;",
     "    at = arguments + stream::WordCallArguments(*at);",
     r"^serve\.Serve\.WordRunsRunTheirCallsAndMalformedOnesCloseOnlyThatClient$|^remote\.Shapes/DecodingAhead\.DrawsTheNativeFrame/matrices"),
    ("an array in a run taken from a client that did not agree to words-v2", "remote",
     "src/host/record_dispatch.cpp",
     "    entry.arguments = entry.array && !word_arrays_ ? stream::kNotInRuns : stream::WordCallArity(entry.slot);",
     "    entry.arguments = stream::WordCallArity(entry.slot);",
     r"^serve\.Serve\.WordRunsRunTheirCallsAndMalformedOnesCloseOnlyThatClient$"),
    ("the client never sends arrays in word runs", "remote client",
     "src/remote/connection.cpp",
     "  word_arrays_ = word_runs_ && stream::wire::HasFeature(session.features(), stream::wire::kFeatureWordArrays);",
     "  word_arrays_ = false;",
     r"^remote\.Shapes/DecodingAhead\."),
    ("calls decoded ahead after a word run numbered from before it", "renderer decoding ahead",
     "src/stream/call_preparer.cpp",
     "  if (record.type == RecordType::kWordRun && !failed_) FollowWordRun(record);",
     "  (void)0;",
     r"^serve\.MessagePreparer\.HandsOutEveryRecordWithItsCallsKeptDecoded$"),
    ("a call run through its handler not counted", "remote",
     "src/host/record_dispatch.cpp",
     "  Ran(call.head.sequence, call.start_ns, call.duration_ns);",
     "  (void)0;",
     r"^remote\.Shapes/DecodingAhead\.DrawsTheNativeFrame/draws"),
    ("the handlers' reader hands out a blob that runs past its record", "stream",
     "src/stream/slack_reader.h",
     "    if (at_ > size_ || size > size_ - at_) {",
     "    if (at_ > size_) {",
     r"^stream\.SlackReader\."),
    ("a signed argument kept decoded read as an unsigned one", "stream",
     "api/emit_word_readers.py",
     "    return [WORD_READS[k] for k in kinds]",
     '    return [WORD_READS[k].replace("kZigzag", "kVarint") for k in kinds]',
     r"^stream\.WordReaders\.|^serve\.MessagePreparer\."),
    # The remote client.
    ("a held glDisable sent as an enable", "remote",
     "src/remote/deferred_state.cpp",
     "    (on ? Send_glEnable : Send_glDisable)(c, CapabilityAt(i));",
     "    Send_glEnable(c, CapabilityAt(i));",
     r"^remote\.Remote\.HeldBackCallsChangeNothing"),
    ("writes into a persistent mapping never sent", "remote",
     "src/remote/client_buffers.cpp",
     "    g_persistent_writes.store(true, std::memory_order_relaxed);",
     "    (void)g_persistent_writes;",
     r"^remote\.Remote\.WritesIntoPersistentMappingsReachEachDraw$"),
    ("a window's new size never looked at after a swap", "remote",
     "src/remote/window_sizes.cpp",
     "  g_window_swapped.store(true, std::memory_order_relaxed);",
     "  (void)g_window_swapped;",
     r"^remote\.Remote\.ResizedWindowGetsASurfaceOfTheNewSize$"),
    ("uniforms the client stopped holding dropped", "remote",
     "src/remote/deferred_state.cpp",
     "    --uniforms_as_they_come_;\n    return false;",
     "    --uniforms_as_they_come_;\n    return true;",
     r"^remote\.Remote\.HeldBackCallsChangeNothing"),
    ("the query cache never forgets a setter's state", "remote",
     "src/remote/query_cache.cpp",
     "    if (kCachedPnames[i].groups & groups) known_ &= ~(1u << i);",
     "    (void)i;",
     r"^remote\.Remote\.SavedAndRestoredStateQueries"),
    ("client-made names start over at each call", "remote",
     "src/remote/client_names.cpp",
     "  for (GLsizei i = 0; i < n; ++i) names[i] = first + 1 + static_cast<GLuint>(i);",
     "  for (GLsizei i = 0; i < n; ++i) names[i] = 1 + static_cast<GLuint>(i);",
     r"^remote\.Remote\.ClientMadeNames"),
    ("the client takes GL_NEVER for a blend factor", "remote",
     "api/error_checks.txt",
     "set blend-factor      es2      GL_ZERO GL_ONE GL_SRC_COLOR GL_ONE_MINUS_SRC_COLOR GL_DST_COLOR GL_ONE_MINUS_DST_COLOR",
     "set blend-factor      es2      GL_NEVER GL_ZERO GL_ONE GL_SRC_COLOR GL_ONE_MINUS_SRC_COLOR GL_DST_COLOR "
     "GL_ONE_MINUS_DST_COLOR",
     r"^remote\.Remote\.ErrorsOfCallsTheClientChecks"),
    ("a held attribute index not checked against the limit", "remote",
     "src/remote/deferred_state.cpp",
     "    if (index >= limit) return false;",
     "    (void)limit;",
     r"^remote\.Remote\.HeldBackCallsChangeNothing"),
    ("window frames shown bottom row first", "remote",
     "src/present/window_presenter.cpp",
     "      const uint8_t* src = frame.pixels.data() + static_cast<size_t>(h - 1 - y) * frame_row;",
     "      const uint8_t* src = frame.pixels.data() + static_cast<size_t>(y) * frame_row;",
     r"^remote\.Remote\.WindowShowsTheRenderersFrames"),
    # The storage budget.
    ("the storage budget never refuses", "executor",
     "src/host/storage_budget.cpp",
     "  if (limit_ != 0 && (bytes > limit_ || others > limit_ - bytes)) return false;",
     "  if (limit_ != 0 && false && (bytes > limit_ || others > limit_ - bytes)) return false;",
     r"^host\.StorageBudget"),
    # What the fuzz targets found (docs/security.md, Findings), each now a test of the suite.
    ("fuzz: a blob shorter than its call's arguments reaches the driver", "executor",
     "src/host/executor_checks.cpp",
     "    if (v.in.size() < sizes_[i]) {",
     "    if (v.in.size() < sizes_[i] && false) {",
     r"^replay\.Replay\.RefusesABlobShorter"),
    ("fuzz: an LZ4 chunk's impossible size allocated", "stream",
     "src/stream/trace_file.cpp",
     "  if (codec == kCodecLz4 && raw_size > uint64_t{stored_size} * 255 + 16) {",
     "  if (codec == kCodecLz4 && raw_size > uint64_t{stored_size} * 255 + 16 && false) {",
     r"^stream\.TraceFileTest\.DamageBehindAValidCrc"),
    ("fuzz: a silent peer holds the control socket", "tracer",
     "src/layers/trace/control_server.cpp",
     "      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);",
     "      (void)patience;",
     r"^trace\.AttachDetach\.ControlSocket"),
    ("fuzz: a control line past 8 KiB cut and obeyed", "tracer",
     "src/layers/trace/control_command.cpp",
     "  if (line.size() > kMaxControlLine) {",
     "  if (line.size() > kMaxControlLine && false) {",
     r"^trace\.AttachDetach\.ControlSocket"),
    ("pixel history blind to the app's scissor box", "inspect",
     "src/inspect/pixel_probe.cpp",
     "  } else if (outside_scissor) {",
     "  } else if (outside_scissor && false) {",
     r"^inspect\.PixelApp"),
    ("a replaced shader's source not set", "replay",
     "src/replay/shader_replacement.cpp",
     "    gl.SetSource(host, r->source);",
     "    (void)host;",
     r"^replay\.ReplaceShader"),
    ("llvmpipe's first timer query taken for a call's time", "replay",
     "src/replay/gpu_times.cpp",
     "      gl_->Clear(GL_COLOR_BUFFER_BIT);",
     "      (void)0;",
     r"^replay\.GpuTimes"),
    # strata export --format c (docs/export.md).
    ("a C export whose mapped-buffer writes go nowhere", "export",
     "src/export/c_source_export.cpp",
     "      if (address >= mapping.address && address + bytes.size() <= mapping.address + mapping.length) {",
     "      if (address >= mapping.address && address + bytes.size() <= mapping.address + mapping.length && false) {",
     r"^export\.c\.SampleApps"),
    ("a C export that maps no object names", "export",
     "src/export/c_call_writer.cpp",
     "  if (recorded == 0) return Format(\"(%s)0\", type);",
     "  return Format(\"(%s)%\" PRIu64 \"u\", type, recorded);",
     r"^export\.c\.Glmark2"),
]


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


def failed_tests(ctest_output):
    """The names under ctest's "The following tests FAILED:"."""
    names, listing = [], False
    for line in ctest_output.splitlines():
        if line.startswith("The following tests FAILED"):
            listing = True
        elif listing:
            match = re.match(r"\s*\d+ - (\S+)", line)
            if match:
                names.append(match.group(1))
    return names


def short(names, limit=3):
    text = ", ".join(names[:limit])
    return text + (f" and {len(names) - limit} more" if len(names) > limit else "")


class Restorer:
    """Puts a changed file back, on return or on SIGINT/SIGTERM."""

    def __init__(self):
        self.path, self.original = None, None
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self.interrupted)

    def change(self, path, text, original):
        self.path, self.original = path, original
        with open(path, "w") as f:
            f.write(text)

    def restore(self):
        if self.path is not None:
            with open(self.path, "w") as f:
                f.write(self.original)
            self.path = None

    def interrupted(self, signum, _frame):
        self.restore()
        sys.exit(f"break_on_purpose: interrupted (signal {signum}); the file is restored")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"), help="a configured build (default: build/)")
    parser.add_argument("--only", help="comma-separated breakage names (or parts of them) to run")
    parser.add_argument("--list", action="store_true", help="list the breakages and exit")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for docs/testing.md)")
    args = parser.parse_args()

    chosen = BREAKAGES
    if args.only:
        wanted = [w.strip() for w in args.only.split(",") if w.strip()]
        chosen = [b for b in BREAKAGES if any(w in b[0] for w in wanted)]
        if not chosen:
            sys.exit(f"break_on_purpose: no breakage matches --only {args.only!r} (see --list)")
    if args.list:
        for name, part, path, _, _, tests in chosen:
            print(f"{part:9} {name}\n          {path}; tests: {tests}")
        return 0
    if not os.path.exists(os.path.join(args.build_dir, "build.ninja")):
        sys.exit(f"break_on_purpose: {args.build_dir} is not a configured build (run scripts/build.sh first)")

    # Every pattern must still be there, once, before anything is changed.
    for name, _, path, pattern, _, _ in chosen:
        full = os.path.join(ROOT, path)
        if not os.path.exists(full):
            sys.exit(f"break_on_purpose: '{name}': {path} does not exist")
        count = open(full).read().count(pattern)
        if count != 1:
            sys.exit(f"break_on_purpose: '{name}': the pattern occurs {count} times in {path}, not once:\n  {pattern}")
        if run(["git", "-C", ROOT, "diff", "--quiet", "--", path]).returncode != 0:
            sys.exit(f"break_on_purpose: {path} has uncommitted changes; commit or stash them first")

    restorer = Restorer()
    rows, all_caught = [], True
    for index, (name, part, path, pattern, replacement, tests) in enumerate(chosen, 1):
        full = os.path.join(ROOT, path)
        original = open(full).read()
        started = time.monotonic()
        print(f"[{index}/{len(chosen)}] {name} ({path})", file=sys.stderr, flush=True)
        try:
            restorer.change(full, original.replace(pattern, replacement), original)
            build = run(["ninja", "-C", args.build_dir])
            if build.returncode != 0:
                first_error = next((l for l in build.stdout.splitlines() if "error" in l), build.stdout[-500:])
                caught, verdict = [], "did not build: " + first_error
            else:
                # The tests fail on purpose, so they keep their files (tests/support/scratch.h):
                # in a directory of the run's own, removed after each row.
                scratch = tempfile.mkdtemp(prefix="strata-break-")
                try:
                    ctest = run(["ctest", "--test-dir", args.build_dir, "-R", tests, "-j2", "--timeout", "600"],
                                env=dict(os.environ, TMPDIR=scratch))
                finally:
                    shutil.rmtree(scratch, ignore_errors=True)
                caught = failed_tests(ctest.stdout)
                ran = re.search(r"tests passed, \d+ tests failed out of (\d+)", ctest.stdout)
                if not ran:
                    verdict = "no test matched " + tests
                else:
                    verdict = f"caught by {short(caught)}" if caught else f"NOT caught ({ran.group(1)} tests passed)"
        finally:
            restorer.restore()
        all_caught = all_caught and bool(caught)
        rows.append((name, part, path, short(caught) if caught else verdict))
        print(f"    {verdict} ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)

    print("restoring the build...", file=sys.stderr, flush=True)
    rebuild = run(["ninja", "-C", args.build_dir])
    if rebuild.returncode != 0:
        print("break_on_purpose: the restored tree does not build:\n" + rebuild.stdout[-2000:], file=sys.stderr)
        all_caught = False

    if args.markdown:
        print("| Breakage | Part | File | Caught by |\n|---|---|---|---|")
        for name, part, path, verdict in rows:
            print(f"| {name} | {part} | `{path}` | {verdict} |")
    else:
        width = max(len(r[0]) for r in rows)
        for name, part, _, verdict in rows:
            print(f"{name:{width}}  {part:9} {verdict}")
    return 0 if all_caught else 1


if __name__ == "__main__":
    sys.exit(main())
