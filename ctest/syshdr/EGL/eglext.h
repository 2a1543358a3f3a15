/* Stand-in for <EGL/eglext.h> (see ctest/syshdr/README.md): the extension types that NVIDIA's
 * cuda_egl_interop.h (EGLImageKHR, EGLStreamKHR, EGLSyncKHR) and the tests use. */
#ifndef __eglext_h_
#define __eglext_h_ 1

#include <EGL/egl.h>

typedef void *EGLSyncKHR;                 /* EGL_KHR_fence_sync */
typedef uint64_t EGLTimeKHR;              /* khronos_utime_nanoseconds_t */
typedef void *EGLImageKHR;                /* EGL_KHR_image */
typedef void *EGLStreamKHR;               /* EGL_KHR_stream */
typedef uint64_t EGLuint64KHR;            /* khronos_uint64_t */
typedef void *EGLDeviceEXT;               /* EGL_EXT_device_base */

#endif /* __eglext_h_ */
