/*
 * Strata GLES layers: Android's GLES layer ABI on Linux.
 *
 * A layer is a shared library exporting two C functions:
 *
 *   void* AndroidGLESLayer_Initialize(void* layer_id,
 *                                     PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next_layer_proc_address);
 *   void* AndroidGLESLayer_GetProcAddress(const char* funcName, EGLFuncPointer next);
 *
 * The loader calls Initialize once, then GetProcAddress for every EGL and GLES
 * function it knows (GLES 1.x included). Return `next` to leave a function
 * alone, or your own function to intercept it (and call `next` from it).
 * get_next_layer_proc_address(layer_id, name) answers any name at any time,
 * extension functions the loader does not know included.
 *
 * The first layer listed (STRATA_LAYERS=first:second) is nearest the app.
 * Layers written for Android build unchanged against this header.
 * See docs/writing-layers.md.
 */
#ifndef STRATA_GLES_LAYER_H_
#define STRATA_GLES_LAYER_H_

#include <EGL/egl.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef __eglMustCastToProperFunctionPointerType EGLFuncPointer;
typedef void* (*PFNEGLGETNEXTLAYERPROCADDRESSPROC)(void* layer_id, const char* name);

/* The loader's view of a layer's two entry points. Android's examples define
 * Initialize as returning void; the loader ignores its result either way. */
typedef void* (*PFNANDROIDGLESLAYERINITIALIZEPROC)(void* layer_id,
                                                   PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next_layer_proc_address);
typedef void* (*PFNANDROIDGLESLAYERGETPROCADDRESSPROC)(const char* funcName, EGLFuncPointer next);

#ifdef __cplusplus
}
#endif

#endif /* STRATA_GLES_LAYER_H_ */
