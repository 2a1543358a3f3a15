/* Stand-in for <EGL/egl.h> (see ctest/syshdr/README.md): the EGL 1.5 types. */
#ifndef __egl_h_
#define __egl_h_ 1

#include <stdint.h>

typedef int32_t EGLint; /* khronos_int32_t */
typedef unsigned int EGLBoolean;
typedef unsigned int EGLenum;
typedef intptr_t EGLAttrib;
typedef void *EGLDisplay;
typedef void *EGLConfig;
typedef void *EGLSurface;
typedef void *EGLContext;
typedef void *EGLClientBuffer;
typedef void *EGLSync;
typedef void *EGLImage;
typedef void (*__eglMustCastToProperFunctionPointerType)(void);

#endif /* __egl_h_ */
