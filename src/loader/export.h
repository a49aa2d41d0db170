#pragma once
// Everything in the loader is hidden unless marked; the public libraries export
// exactly the EGL/GLES symbols plus the loader's small internal interface.
#define STRATA_EXPORT __attribute__((visibility("default")))
