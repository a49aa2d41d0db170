/* The runtime of a trace exported as C by `strata export --format c`: what
 * the generated calls need besides the GL itself. Object names, uniform
 * locations and EGL objects are mapped from the trace's to this process's,
 * traced windows become pbuffers of their size on a headless display, and
 * each swap ends a frame (saved as PNG on request). Written for Strata; it
 * builds with any C99 compiler and needs only EGL and GLES. */
#ifndef STRATA_REPLAY_RUNTIME_H
#define STRATA_REPLAY_RUNTIME_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* GLES 1.1's own types, for the prototypes of its functions (identical
 * typedefs may repeat in C11). */
typedef khronos_int32_t GLclampx;

/* Where a name's mapping lives: objects that contexts of a share group share
 * (buffers, textures, programs, ...), those of one context (framebuffers,
 * vertex arrays, queries, ...), and EGL's, which belong to the process. */
enum { STRATA_PER_CONTEXT = 0, STRATA_PER_SHARE_GROUP = 1, STRATA_PER_PROCESS = 2 };

/* The trace's data file (uploads, client arrays, shader sources), loaded whole. */
extern unsigned char* strata_data;
#define STRATA_DATA(offset) ((void*)(strata_data + (offset)))

/* Object names: the host's for a recorded one (a name never mapped stands for itself). */
uint64_t strata_name(int scope, int object_class, uint64_t recorded);
void strata_add_name(int scope, int object_class, uint64_t recorded, uint64_t host);
/* `count` names a call made: recorded ones, and the host's as the call wrote them (`name_bytes` each). */
void strata_add_names(int scope, int object_class, const uint64_t* recorded, const void* host, size_t count,
                      size_t name_bytes);
void strata_remove_name(int scope, int object_class, uint64_t recorded);
/* A name of an object of another context's share group (eglCreateImage's client buffer). */
uint64_t strata_name_in_context(uint64_t context, int object_class, uint64_t recorded);

/* Uniform locations of a (recorded) program, as glGetUniformLocation answered them. */
GLint strata_location(uint64_t program, int64_t recorded);
void strata_add_location(uint64_t program, int64_t recorded, GLint host);

/* Memory for a call's outputs; good until eight more are asked for. */
void* strata_scratch(size_t bytes);
/* A mapped buffer range, by the number the exporter gave its mapping, and
 * what the app wrote into it at `offset`. */
void strata_set_mapping(int mapping, void* host);
void strata_write_mapping(int mapping, uint64_t offset, const void* bytes, size_t size);

/* EGL: one headless display; recorded configs, surfaces and contexts. */
EGLDisplay strata_display(void);
EGLConfig strata_config(uint64_t recorded);
EGLSurface strata_surface(uint64_t recorded);
EGLContext strata_context(uint64_t recorded);
void strata_config_format(uint64_t recorded, const EGLint* format);
void strata_choose_config(const EGLint* attribs, const uint64_t* recorded, int count);
void strata_get_configs(const uint64_t* recorded, int count);
void strata_window_surface(uint64_t recorded, uint64_t config);
void strata_pbuffer_surface(uint64_t recorded, uint64_t config, const EGLint* attribs);
void strata_surface_size(uint64_t recorded, int width, int height);
void strata_destroy_surface(uint64_t recorded);
void strata_create_context(uint64_t recorded, uint64_t config, uint64_t share, const EGLint* attribs);
void strata_destroy_context(uint64_t recorded);
void strata_make_current(uint64_t draw, uint64_t read, uint64_t context);
void strata_release_thread(void);
/* Ends a frame: the surface is saved when asked for, then swapped. */
void strata_swap(uint64_t surface);

/* Generated with the trace (trace_chunks.c, trace_functions.c). */
typedef void (*strata_chunk)(void);
extern const strata_chunk strata_chunks[];
extern const size_t strata_chunk_count;
extern const char strata_trace_name[];
extern const uint64_t strata_trace_frames;
void strata_load_functions(void);

#endif
