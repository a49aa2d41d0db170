/* The runtime of a trace exported as C (replay_runtime.h), and its main(). */
#define _POSIX_C_SOURCE 200809L
#include "replay_runtime.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef STRATA_DATA_PATH
#define STRATA_DATA_PATH "trace.data"
#endif

enum { kMaxClasses = 32, kDefaultWidth = 640, kDefaultHeight = 480 };

unsigned char* strata_data;

static void Fail(const char* what) {
  fprintf(stderr, "%s: error: %s\n", strata_trace_name, what);
  exit(1);
}

static void* Allocate(size_t bytes) {
  void* p = calloc(1, bytes ? bytes : 1);
  if (p == NULL) Fail("out of memory");
  return p;
}

/* ---- Maps of 64-bit keys (open addressing; removed keys leave a tombstone) ---- */

struct Map {
  uint64_t* keys;
  uint64_t* values;
  unsigned char* used; /* 0 free, 1 in use, 2 removed */
  size_t capacity, count;
};

static size_t Slot(uint64_t key, size_t capacity) {
  return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (capacity - 1);
}

static void MapPut(struct Map* map, uint64_t key, uint64_t value);

static void MapGrow(struct Map* map) {
  struct Map bigger = {0};
  size_t i;
  bigger.capacity = map->capacity ? map->capacity * 2 : 64;
  bigger.keys = Allocate(bigger.capacity * sizeof(uint64_t));
  bigger.values = Allocate(bigger.capacity * sizeof(uint64_t));
  bigger.used = Allocate(bigger.capacity);
  for (i = 0; i < map->capacity; ++i) {
    if (map->used[i] == 1) MapPut(&bigger, map->keys[i], map->values[i]);
  }
  free(map->keys);
  free(map->values);
  free(map->used);
  *map = bigger;
}

static void MapPut(struct Map* map, uint64_t key, uint64_t value) {
  size_t i;
  if ((map->count + 1) * 2 > map->capacity) MapGrow(map);
  for (i = Slot(key, map->capacity);; i = (i + 1) & (map->capacity - 1)) {
    if (map->used[i] == 1 && map->keys[i] == key) {
      map->values[i] = value;
      return;
    }
    if (map->used[i] != 1) {
      map->used[i] = 1;
      map->keys[i] = key;
      map->values[i] = value;
      ++map->count;
      return;
    }
  }
}

static int MapGet(const struct Map* map, uint64_t key, uint64_t* value) {
  size_t i;
  if (map->capacity == 0) return 0;
  for (i = Slot(key, map->capacity); map->used[i] != 0; i = (i + 1) & (map->capacity - 1)) {
    if (map->used[i] == 1 && map->keys[i] == key) {
      *value = map->values[i];
      return 1;
    }
  }
  return 0;
}

static void MapRemove(struct Map* map, uint64_t key) {
  size_t i;
  if (map->capacity == 0) return;
  for (i = Slot(key, map->capacity); map->used[i] != 0; i = (i + 1) & (map->capacity - 1)) {
    if (map->used[i] == 1 && map->keys[i] == key) {
      map->used[i] = 2;
      return;
    }
  }
}

/* ---- Contexts, share groups, surfaces, configs ---- */

struct ShareGroup {
  struct Map names[kMaxClasses];
  struct Map locations; /* (program, recorded location) -> host location */
};

struct Context {
  uint64_t recorded;
  EGLContext host;
  EGLConfig config;
  struct ShareGroup* group;
  struct Map names[kMaxClasses];
};

struct Surface {
  uint64_t recorded;
  EGLConfig config;
  EGLSurface host;
  int width, height, stand_in;
};

struct Config {
  uint64_t recorded;
  EGLConfig host;      /* by position in an eglChooseConfig / eglGetConfigs answer */
  EGLConfig matched;   /* of the format the trace describes */
  EGLint format[130];  /* attribute, value pairs, EGL_NONE-terminated; format[0] == EGL_NONE: none given */
  int has_format;
};

static EGLDisplay g_display = EGL_NO_DISPLAY;
static struct Context** g_contexts;
static size_t g_context_count;
static struct Context* g_current;
static struct Surface* g_surfaces;
static size_t g_surface_count;
static struct Config* g_configs;
static size_t g_config_count;
static struct Map g_process_names[kMaxClasses];
static unsigned char** g_mappings;
static size_t g_mapping_count;

/* Options and counts of the run. */
static const char* g_snapshot_dir;
static uint64_t g_frame, g_frame_limit = UINT64_MAX;
static int g_stop;

static uint64_t Key(uint64_t a, int64_t b) { return (a << 32) ^ (uint32_t)b; }

static struct Map* Names(int scope, int object_class) {
  if (object_class < 0 || object_class >= kMaxClasses) return NULL;
  if (scope == STRATA_PER_PROCESS) return &g_process_names[object_class];
  if (g_current == NULL) return NULL;
  return scope == STRATA_PER_SHARE_GROUP ? &g_current->group->names[object_class] : &g_current->names[object_class];
}

uint64_t strata_name(int scope, int object_class, uint64_t recorded) {
  uint64_t host;
  struct Map* names = Names(scope, object_class);
  if (recorded == 0 || names == NULL || !MapGet(names, recorded, &host)) return recorded;
  return host;
}

void strata_add_name(int scope, int object_class, uint64_t recorded, uint64_t host) {
  struct Map* names = Names(scope, object_class);
  if (names != NULL && recorded != 0) MapPut(names, recorded, host);
}

void strata_add_names(int scope, int object_class, const uint64_t* recorded, const void* host, size_t count,
                      size_t name_bytes) {
  size_t i;
  for (i = 0; i < count; ++i) {
    uint64_t value = 0;
    if (name_bytes == 4) {
      uint32_t v;
      memcpy(&v, (const unsigned char*)host + i * 4, 4);
      value = v;
    } else {
      memcpy(&value, (const unsigned char*)host + i * 8, 8);
    }
    strata_add_name(scope, object_class, recorded[i], value);
  }
}

void strata_remove_name(int scope, int object_class, uint64_t recorded) {
  struct Map* names = Names(scope, object_class);
  if (names != NULL) MapRemove(names, recorded);
}

static struct Context* FindContext(uint64_t recorded) {
  size_t i;
  for (i = g_context_count; i > 0; --i) {
    if (g_contexts[i - 1]->recorded == recorded) return g_contexts[i - 1];
  }
  return NULL;
}

uint64_t strata_name_in_context(uint64_t context, int object_class, uint64_t recorded) {
  uint64_t host;
  struct Context* c = FindContext(context);
  if (c == NULL || object_class < 0 || object_class >= kMaxClasses ||
      !MapGet(&c->group->names[object_class], recorded, &host)) {
    return recorded;
  }
  return host;
}

GLint strata_location(uint64_t program, int64_t recorded) {
  uint64_t host;
  if (recorded < 0 || g_current == NULL || !MapGet(&g_current->group->locations, Key(program, recorded), &host)) {
    return (GLint)recorded;
  }
  return (GLint)(int64_t)host;
}

void strata_add_location(uint64_t program, int64_t recorded, GLint host) {
  if (g_current != NULL && recorded >= 0) MapPut(&g_current->group->locations, Key(program, recorded), (uint64_t)(int64_t)host);
}

void* strata_scratch(size_t bytes) {
  static unsigned char* buffers[8];
  static size_t sizes[8];
  static unsigned next;
  unsigned at = next++ % 8;
  if (sizes[at] < bytes) {
    free(buffers[at]);
    buffers[at] = Allocate(bytes);
    sizes[at] = bytes;
  }
  if (buffers[at] == NULL) buffers[at] = Allocate(64), sizes[at] = 64;
  memset(buffers[at], 0, sizes[at] < 256 ? sizes[at] : 256);
  return buffers[at];
}

void strata_set_mapping(int mapping, void* host) {
  if (mapping < 0) return;
  if ((size_t)mapping >= g_mapping_count) {
    size_t count = (size_t)mapping + 16;
    g_mappings = realloc(g_mappings, count * sizeof *g_mappings);
    if (g_mappings == NULL) Fail("out of memory");
    memset(g_mappings + g_mapping_count, 0, (count - g_mapping_count) * sizeof *g_mappings);
    g_mapping_count = count;
  }
  g_mappings[mapping] = host;
}

void strata_write_mapping(int mapping, uint64_t offset, const void* bytes, size_t size) {
  /* A range the driver did not map takes the app's writes nowhere, as strata replay drops them. */
  if (mapping >= 0 && (size_t)mapping < g_mapping_count && g_mappings[mapping] != NULL) {
    memcpy(g_mappings[mapping] + offset, bytes, size);
  }
}

/* ---- EGL ---- */

EGLDisplay strata_display(void) {
  if (g_display != EGL_NO_DISPLAY) return g_display;
  {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    const char* extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    EGLint major = 0, minor = 0;
    if (get_platform_display && extensions && strstr(extensions, "EGL_MESA_platform_surfaceless")) {
      g_display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    }
    if (g_display == EGL_NO_DISPLAY) g_display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (g_display == EGL_NO_DISPLAY || !eglInitialize(g_display, &major, &minor)) {
      Fail("EGL has neither a surfaceless nor a default display that initializes");
    }
    eglBindAPI(EGL_OPENGL_ES_API);
  }
  return g_display;
}

static struct Config* FindConfig(uint64_t recorded, int make) {
  size_t i;
  for (i = 0; i < g_config_count; ++i) {
    if (g_configs[i].recorded == recorded) return &g_configs[i];
  }
  if (!make) return NULL;
  g_configs = realloc(g_configs, (g_config_count + 1) * sizeof *g_configs);
  if (g_configs == NULL) Fail("out of memory");
  memset(&g_configs[g_config_count], 0, sizeof *g_configs);
  g_configs[g_config_count].recorded = recorded;
  g_configs[g_config_count].format[0] = EGL_NONE;
  return &g_configs[g_config_count++];
}

void strata_config_format(uint64_t recorded, const EGLint* format) {
  struct Config* config = FindConfig(recorded, 1);
  size_t n = 0;
  while (format[n] != EGL_NONE && n + 2 < sizeof config->format / sizeof config->format[0]) {
    config->format[n] = format[n];
    config->format[n + 1] = format[n + 1];
    n += 2;
  }
  config->format[n] = EGL_NONE;
  config->has_format = 1;
  config->matched = NULL;
}

/* The host config of a described format: exact sizes first, then any sample count. */
static EGLConfig MatchingConfig(const EGLint* format) {
  EGLint count = 0, i, pass;
  EGLConfig* configs;
  EGLConfig found = NULL;
  eglGetConfigs(strata_display(), NULL, 0, &count);
  configs = Allocate(sizeof(EGLConfig) * (size_t)(count > 0 ? count : 1));
  eglGetConfigs(strata_display(), configs, count, &count);
  for (pass = 0; pass < 2 && found == NULL; ++pass) {
    for (i = 0; i < count && found == NULL; ++i) {
      int match = 1;
      const EGLint* a;
      for (a = format; *a != EGL_NONE && match; a += 2) {
        EGLint value = 0;
        if (!eglGetConfigAttrib(strata_display(), configs[i], a[0], &value)) continue;
        switch (a[0]) {
          case EGL_CONFIG_ID: break; /* another display numbers its configs its own way */
          case EGL_SAMPLES:
          case EGL_SAMPLE_BUFFERS: match = pass == 1 || value == a[1]; break;
          case EGL_RENDERABLE_TYPE: match = (value & a[1]) == a[1]; break;
          case EGL_SURFACE_TYPE: {
            EGLint needed = a[1] & EGL_PBUFFER_BIT;
            if (a[1] & (EGL_WINDOW_BIT | EGL_PIXMAP_BIT)) needed |= EGL_PBUFFER_BIT;
            match = (value & needed) == needed;
            break;
          }
          default: match = value == a[1];
        }
      }
      if (match) found = configs[i];
    }
  }
  free(configs);
  return found;
}

static EGLConfig AnyConfig(void) {
  static const EGLint attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                   EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8, EGL_NONE};
  EGLConfig config = NULL;
  EGLint count = 0;
  eglChooseConfig(strata_display(), attribs, &config, 1, &count);
  return count > 0 ? config : NULL;
}

EGLConfig strata_config(uint64_t recorded) {
  struct Config* config = FindConfig(recorded, 0);
  if (recorded == 0) return NULL;
  if (config && config->has_format) {
    if (config->matched == NULL) config->matched = MatchingConfig(config->format);
    if (config->matched) return config->matched;
  }
  if (config && config->host) return config->host;
  return AnyConfig();
}

static void AnswerConfigs(EGLConfig* host, EGLint count, const uint64_t* recorded, int recorded_count) {
  int i;
  for (i = 0; i < recorded_count && count > 0; ++i) {
    FindConfig(recorded[i], 1)->host = host[i < count ? i : count - 1];
  }
}

void strata_choose_config(const EGLint* attribs, const uint64_t* recorded, int count) {
  EGLint list[256], n = 0, found = 0, has_surface_type = 0;
  EGLConfig* configs = Allocate(sizeof(EGLConfig) * (size_t)(count > 0 ? count : 1));
  /* Windows and pixmaps stand in as pbuffers: ask for configs those suit. */
  for (; attribs[n] != EGL_NONE && n + 4 < (EGLint)(sizeof list / sizeof list[0]); n += 2) {
    list[n] = attribs[n];
    list[n + 1] = attribs[n + 1];
    if (attribs[n] == EGL_SURFACE_TYPE) {
      has_surface_type = 1;
      if (list[n + 1] != EGL_DONT_CARE && (list[n + 1] & (EGL_WINDOW_BIT | EGL_PIXMAP_BIT))) {
        list[n + 1] = (list[n + 1] & ~(EGL_WINDOW_BIT | EGL_PIXMAP_BIT)) | EGL_PBUFFER_BIT;
      }
    }
  }
  if (!has_surface_type) {
    list[n++] = EGL_SURFACE_TYPE;
    list[n++] = EGL_PBUFFER_BIT;
  }
  list[n] = EGL_NONE;
  if (eglChooseConfig(strata_display(), list, configs, count > 0 ? count : 1, &found) && found > 0) {
    AnswerConfigs(configs, found, recorded, count);
  }
  free(configs);
}

void strata_get_configs(const uint64_t* recorded, int count) {
  EGLint found = 0;
  EGLConfig* configs = Allocate(sizeof(EGLConfig) * (size_t)(count > 0 ? count : 1));
  if (eglGetConfigs(strata_display(), configs, count > 0 ? count : 1, &found) && found > 0) {
    AnswerConfigs(configs, found, recorded, count);
  }
  free(configs);
}

static struct Surface* FindSurface(uint64_t recorded, int make) {
  size_t i;
  for (i = 0; i < g_surface_count; ++i) {
    if (g_surfaces[i].recorded == recorded) return &g_surfaces[i];
  }
  if (!make) return NULL;
  g_surfaces = realloc(g_surfaces, (g_surface_count + 1) * sizeof *g_surfaces);
  if (g_surfaces == NULL) Fail("out of memory");
  memset(&g_surfaces[g_surface_count], 0, sizeof *g_surfaces);
  g_surfaces[g_surface_count].recorded = recorded;
  g_surfaces[g_surface_count].host = EGL_NO_SURFACE;
  return &g_surfaces[g_surface_count++];
}

static EGLSurface MakePbuffer(EGLConfig config, int width, int height) {
  const EGLint attribs[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(strata_display(), config, attribs);
  if (surface == EGL_NO_SURFACE) {
    fprintf(stderr, "%s: warning: cannot create a %dx%d pbuffer for a traced window (EGL error 0x%x)\n",
            strata_trace_name, width, height, eglGetError());
  }
  return surface;
}

EGLSurface strata_surface(uint64_t recorded) {
  struct Surface* surface = recorded ? FindSurface(recorded, 0) : NULL;
  if (surface == NULL) return EGL_NO_SURFACE;
  if (surface->host == EGL_NO_SURFACE && surface->stand_in && surface->config != NULL) {
    if (surface->width <= 0 || surface->height <= 0) {
      fprintf(stderr, "%s: warning: a window surface's size is not in the trace; it is replayed at %dx%d\n",
              strata_trace_name, kDefaultWidth, kDefaultHeight);
      surface->width = kDefaultWidth;
      surface->height = kDefaultHeight;
    }
    surface->host = MakePbuffer(surface->config, surface->width, surface->height);
    if (surface->host == EGL_NO_SURFACE) surface->stand_in = 0; /* do not try again for every call */
  }
  return surface->host;
}

void strata_window_surface(uint64_t recorded, uint64_t config) {
  struct Surface* surface = FindSurface(recorded, 1);
  if (surface->host != EGL_NO_SURFACE) eglDestroySurface(strata_display(), surface->host);
  surface->host = EGL_NO_SURFACE;
  surface->stand_in = 1; /* made on first use: its size comes after this call */
  surface->config = strata_config(config);
}

void strata_pbuffer_surface(uint64_t recorded, uint64_t config, const EGLint* attribs) {
  struct Surface* surface = FindSurface(recorded, 1);
  surface->stand_in = 0;
  surface->config = strata_config(config);
  surface->host = eglCreatePbufferSurface(strata_display(), surface->config, attribs);
}

void strata_surface_size(uint64_t recorded, int width, int height) {
  struct Surface* surface = FindSurface(recorded, 1);
  EGLSurface old = surface->host, fresh, draw, read;
  if (surface->width == width && surface->height == height) return;
  surface->width = width;
  surface->height = height;
  if (!surface->stand_in || old == EGL_NO_SURFACE) return;
  /* A window that changed size: its stand-in is made again at the new size. */
  fresh = MakePbuffer(surface->config, width, height);
  if (fresh == EGL_NO_SURFACE) return;
  draw = eglGetCurrentSurface(EGL_DRAW);
  read = eglGetCurrentSurface(EGL_READ);
  if (draw == old || read == old) {
    eglMakeCurrent(strata_display(), draw == old ? fresh : draw, read == old ? fresh : read, eglGetCurrentContext());
  }
  eglDestroySurface(strata_display(), old);
  surface->host = fresh;
}

void strata_destroy_surface(uint64_t recorded) {
  struct Surface* surface = FindSurface(recorded, 0);
  if (surface == NULL) return;
  if (surface->host != EGL_NO_SURFACE) eglDestroySurface(strata_display(), surface->host);
  surface->host = EGL_NO_SURFACE;
  surface->stand_in = 0;
  surface->recorded = 0;
}

EGLContext strata_context(uint64_t recorded) {
  struct Context* context = recorded ? FindContext(recorded) : NULL;
  return context ? context->host : EGL_NO_CONTEXT;
}

void strata_create_context(uint64_t recorded, uint64_t config, uint64_t share, const EGLint* attribs) {
  struct Context* shared = share ? FindContext(share) : NULL;
  struct Context* context;
  EGLContext host = eglCreateContext(strata_display(), strata_config(config),
                                     shared ? shared->host : EGL_NO_CONTEXT, attribs);
  if (host == EGL_NO_CONTEXT) {
    fprintf(stderr, "%s: warning: the driver refused to create a context (EGL error 0x%x)\n", strata_trace_name,
            eglGetError());
    return;
  }
  context = Allocate(sizeof *context);
  context->recorded = recorded;
  context->host = host;
  context->config = strata_config(config);
  context->group = shared ? shared->group : Allocate(sizeof(struct ShareGroup));
  g_contexts = realloc(g_contexts, (g_context_count + 1) * sizeof *g_contexts);
  if (g_contexts == NULL) Fail("out of memory");
  g_contexts[g_context_count++] = context;
}

void strata_destroy_context(uint64_t recorded) {
  struct Context* context = FindContext(recorded);
  if (context == NULL) return;
  eglDestroyContext(strata_display(), context->host);
  context->recorded = 0; /* its maps stay: a thread may still have it current */
}

void strata_make_current(uint64_t draw, uint64_t read, uint64_t recorded) {
  struct Context* context = recorded ? FindContext(recorded) : NULL;
  uint64_t surfaces[2];
  int i;
  surfaces[0] = draw;
  surfaces[1] = read;
  /* A surface first seen here (a trace begun mid-run) gets the context's config. */
  for (i = 0; i < 2; ++i) {
    if (surfaces[i] != 0 && FindSurface(surfaces[i], 0) == NULL && context) {
      struct Surface* surface = FindSurface(surfaces[i], 1);
      surface->stand_in = 1;
      surface->config = context->config;
    }
  }
  if (!eglMakeCurrent(strata_display(), strata_surface(draw), strata_surface(read),
                      context ? context->host : EGL_NO_CONTEXT)) {
    fprintf(stderr, "%s: warning: the driver refused to make a context current (EGL error 0x%x)\n",
            strata_trace_name, eglGetError());
    return;
  }
  g_current = context;
}

void strata_release_thread(void) {
  eglReleaseThread();
  g_current = NULL;
}

/* ---- Frames as PNG (stored, uncompressed deflate: no library needed) ---- */

static uint32_t Crc(uint32_t crc, const unsigned char* bytes, size_t size) {
  static uint32_t table[256];
  size_t i;
  if (table[1] == 0) {
    uint32_t n, k, c;
    for (n = 0; n < 256; ++n) {
      for (c = n, k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[n] = c;
    }
  }
  crc = ~crc;
  for (i = 0; i < size; ++i) crc = table[(crc ^ bytes[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

static void Be32(unsigned char* at, uint32_t v) {
  at[0] = (unsigned char)(v >> 24);
  at[1] = (unsigned char)(v >> 16);
  at[2] = (unsigned char)(v >> 8);
  at[3] = (unsigned char)v;
}

static int WriteChunk(FILE* f, const char* type, const unsigned char* data, size_t size) {
  unsigned char head[8], tail[4];
  uint32_t crc = Crc(0, (const unsigned char*)type, 4);
  Be32(head, (uint32_t)size);
  memcpy(head + 4, type, 4);
  crc = Crc(crc, data, size);
  Be32(tail, crc);
  return fwrite(head, 1, 8, f) == 8 && (size == 0 || fwrite(data, 1, size, f) == size) && fwrite(tail, 1, 4, f) == 4;
}

/* `rgba`: rows bottom first, as glReadPixels gives them. */
static int WritePng(const char* path, int width, int height, const unsigned char* rgba) {
  static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  const size_t row = (size_t)width * 4 + 1, raw_size = row * (size_t)height;
  const size_t blocks = raw_size / 65535 + 1;
  unsigned char header[13] = {0};
  unsigned char* z = Allocate(2 + raw_size + blocks * 5 + 4);
  unsigned char* raw = Allocate(raw_size);
  size_t at = 0, done = 0;
  uint32_t a = 1, b = 0;
  int y, ok;
  FILE* f;
  for (y = 0; y < height; ++y) {
    raw[(size_t)y * row] = 0; /* filter: none */
    memcpy(raw + (size_t)y * row + 1, rgba + (size_t)(height - 1 - y) * (size_t)width * 4, (size_t)width * 4);
  }
  z[at++] = 0x78;
  z[at++] = 0x01;
  do {
    size_t n = raw_size - done < 65535 ? raw_size - done : 65535;
    z[at++] = done + n == raw_size ? 1 : 0;
    z[at++] = (unsigned char)(n & 0xFF);
    z[at++] = (unsigned char)(n >> 8);
    z[at++] = (unsigned char)(~n & 0xFF);
    z[at++] = (unsigned char)((~n >> 8) & 0xFF);
    memcpy(z + at, raw + done, n);
    at += n;
    done += n;
  } while (done < raw_size);
  for (done = 0; done < raw_size; ++done) {
    a = (a + raw[done]) % 65521;
    b = (b + a) % 65521;
  }
  Be32(z + at, (b << 16) | a);
  at += 4;
  Be32(header, (uint32_t)width);
  Be32(header + 4, (uint32_t)height);
  header[8] = 8; /* bits per channel */
  header[9] = 6; /* RGBA */
  f = fopen(path, "wb");
  ok = f != NULL && fwrite(signature, 1, 8, f) == 8 && WriteChunk(f, "IHDR", header, 13) &&
       WriteChunk(f, "IDAT", z, at) && WriteChunk(f, "IEND", NULL, 0);
  if (f != NULL && fclose(f) != 0) ok = 0;
  free(z);
  free(raw);
  return ok;
}

/* The current draw surface, read as RGBA8 with pack state at its defaults and put back after. */
static void SaveFrame(EGLSurface surface) {
  GLint width = 0, height = 0, alignment = 4, pack_buffer = 0, row_length = 0, skip_rows = 0, skip_pixels = 0;
  GLint read_framebuffer = 0;
  const char* version = (const char*)glGetString(GL_VERSION);
  const int gles3 = version && strncmp(version, "OpenGL ES 3", 11) == 0;
  const int gles2 = version && strncmp(version, "OpenGL ES 2", 11) == 0;
  unsigned char* pixels;
  char path[4096];
  eglQuerySurface(strata_display(), surface, EGL_WIDTH, &width);
  eglQuerySurface(strata_display(), surface, EGL_HEIGHT, &height);
  if (width <= 0 || height <= 0) return;
  pixels = Allocate((size_t)width * (size_t)height * 4);
  glGetIntegerv(GL_PACK_ALIGNMENT, &alignment);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  if (gles3) {
    glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
    glGetIntegerv(GL_PACK_ROW_LENGTH, &row_length);
    glGetIntegerv(GL_PACK_SKIP_ROWS, &skip_rows);
    glGetIntegerv(GL_PACK_SKIP_PIXELS, &skip_pixels);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_framebuffer);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glPixelStorei(GL_PACK_SKIP_ROWS, 0);
    glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  } else if (gles2) {
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &read_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
  }
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  if (gles3) {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buffer);
    glPixelStorei(GL_PACK_ROW_LENGTH, row_length);
    glPixelStorei(GL_PACK_SKIP_ROWS, skip_rows);
    glPixelStorei(GL_PACK_SKIP_PIXELS, skip_pixels);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read_framebuffer);
  } else if (gles2) {
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)read_framebuffer);
  }
  glPixelStorei(GL_PACK_ALIGNMENT, alignment);
  snprintf(path, sizeof path, "%s/frame-%06llu.png", g_snapshot_dir, (unsigned long long)g_frame);
  if (!WritePng(path, width, height, pixels)) {
    fprintf(stderr, "%s: error: cannot write %s: %s\n", strata_trace_name, path, strerror(errno));
    exit(1);
  }
  free(pixels);
}

void strata_swap(uint64_t recorded) {
  EGLSurface surface = strata_surface(recorded);
  if (g_snapshot_dir != NULL && surface != EGL_NO_SURFACE) SaveFrame(surface);
  eglSwapBuffers(strata_display(), surface);
  if (++g_frame >= g_frame_limit) g_stop = 1;
}

/* ---- The program ---- */

static void LoadData(const char* path) {
  FILE* f = fopen(path, "rb");
  long size;
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "%s: error: cannot read the trace's data file %s: %s (give its path with --data)\n",
            strata_trace_name, path, strerror(errno));
    exit(1);
  }
  strata_data = Allocate((size_t)size + 16);
  if (size > 0 && fread(strata_data, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "%s: error: cannot read the trace's data file %s\n", strata_trace_name, path);
    exit(1);
  }
  fclose(f);
}

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void Usage(FILE* out) {
  fprintf(out,
          "usage: %s [options]\n\n"
          "Replays the trace it was exported from (%llu frames) on EGL, headless.\n\n"
          "options:\n"
          "  --frames N       replay the first N frames only\n"
          "  --snapshot DIR   save each frame as DIR/frame-NNNNNN.png (as strata replay\n"
          "                   --snapshot names them); DIR must exist\n"
          "  --data FILE      the trace's data file (default: %s)\n"
          "  -h, --help       show this help\n",
          strata_trace_name, (unsigned long long)strata_trace_frames, STRATA_DATA_PATH);
}

int main(int argc, char** argv) {
  const char* data_path = STRATA_DATA_PATH;
  double start, first_frame_end = 0, end;
  uint64_t steady_from = 0;
  size_t chunk;
  int i;
  for (i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      Usage(stdout);
      return 0;
    } else if ((strcmp(arg, "--frames") == 0 || strcmp(arg, "--snapshot") == 0 || strcmp(arg, "--data") == 0) &&
               i + 1 < argc) {
      const char* value = argv[++i];
      if (strcmp(arg, "--frames") == 0) {
        char* end_of_number;
        errno = 0;
        g_frame_limit = strtoull(value, &end_of_number, 10);
        if (errno || *end_of_number || value[0] == '-' || value[0] == 0 || g_frame_limit == 0) {
          fprintf(stderr, "%s: error: --frames takes a number of frames above 0, not '%s'\n", strata_trace_name, value);
          return 2;
        }
      } else if (strcmp(arg, "--snapshot") == 0) {
        g_snapshot_dir = value;
      } else {
        data_path = value;
      }
    } else {
      fprintf(stderr, "%s: error: %s '%s'\n", strata_trace_name,
              arg[0] == '-' ? "unknown option, or one without its value:" : "unexpected argument", arg);
      Usage(stderr);
      return 2;
    }
  }
  LoadData(data_path);
  strata_display();
  strata_load_functions();
  start = Now();
  for (chunk = 0; chunk < strata_chunk_count && !g_stop; ++chunk) {
    strata_chunks[chunk]();
    if (g_frame == 1 && steady_from == 0) {
      first_frame_end = Now();
      steady_from = 1;
    }
  }
  end = Now();
  if (g_frame >= 2) {
    printf("%llu frames in %.3f s; %.1f frames/s from frame 1 on\n", (unsigned long long)g_frame, end - start,
           (double)(g_frame - 1) / (end - first_frame_end));
  } else {
    printf("%llu frames in %.3f s\n", (unsigned long long)g_frame, end - start);
  }
  eglMakeCurrent(strata_display(), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(strata_display());
  return 0;
}
