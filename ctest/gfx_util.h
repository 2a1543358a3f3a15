/*
 * gfx_util.h: headless EGL and OpenGL for the interop tests (gl_interop.c, egl_interop.c).
 *
 * libEGL.so.1 and libOpenGL.so.0 are loaded with dlopen, so the tests build without any GL
 * development package and link to nothing but the runtime; the EGL and GL types come from the
 * interop headers' includes (ctest/syshdr on the test machines), the few functions and
 * constants used are declared here. The display is the EGL device whose CUDA device is 0
 * (EGL_EXT_platform_device, EGL_NV_device_cuda), else the first that initializes; the GL
 * context is a desktop OpenGL one, current with a 16x16 pbuffer.
 *
 * What a run needs: libEGL.so.1 (glvnd) with NVIDIA's EGL vendor library (with no display,
 * __EGL_VENDOR_LIBRARY_FILENAMES naming NVIDIA's 10_nvidia.json), and libOpenGL.so.0 for the
 * GL functions (eglGetProcAddress is the fallback). Whatever is missing is printed as one line
 * (`EGL: unavailable`, `GL context: unavailable`), the same under every runtime, and the tests
 * then check only what needs no EGL or GL.
 */
#ifndef CUDART_RS_GFX_UTIL_H
#define CUDART_RS_GFX_UTIL_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

/* EGL */
#define GX_EGL_NONE 0x3038
#define GX_EGL_SUCCESS 0x3000
#define GX_EGL_EXTENSIONS 0x3055
#define GX_EGL_SURFACE_TYPE 0x3033
#define GX_EGL_PBUFFER_BIT 0x0001
#define GX_EGL_RENDERABLE_TYPE 0x3040
#define GX_EGL_OPENGL_BIT 0x0008
#define GX_EGL_RED_SIZE 0x3024
#define GX_EGL_GREEN_SIZE 0x3023
#define GX_EGL_BLUE_SIZE 0x3022
#define GX_EGL_ALPHA_SIZE 0x3021
#define GX_EGL_WIDTH 0x3057
#define GX_EGL_HEIGHT 0x3056
#define GX_EGL_OPENGL_API 0x30A2
#define GX_EGL_PLATFORM_DEVICE_EXT 0x313F
#define GX_EGL_CUDA_DEVICE_NV 0x323A
#define GX_EGL_GL_TEXTURE_2D_KHR 0x30B1
#define GX_EGL_SYNC_FENCE_KHR 0x30F9
#define GX_EGL_SYNC_STATUS_KHR 0x30F1
#define GX_EGL_SIGNALED_KHR 0x30F2
#define GX_EGL_STREAM_FIFO_LENGTH_KHR 0x31FC

/* OpenGL */
#define GX_GL_ARRAY_BUFFER 0x8892
#define GX_GL_DYNAMIC_DRAW 0x88E8
#define GX_GL_TEXTURE_2D 0x0DE1
#define GX_GL_TEXTURE_3D 0x806F
#define GX_GL_RGBA8 0x8058
#define GX_GL_RGBA 0x1908
#define GX_GL_UNSIGNED_BYTE 0x1401
#define GX_GL_TEXTURE_MIN_FILTER 0x2801
#define GX_GL_TEXTURE_MAG_FILTER 0x2800
#define GX_GL_NEAREST 0x2600
#define GX_GL_PACK_ALIGNMENT 0x0D05
#define GX_GL_UNPACK_ALIGNMENT 0x0CF5

typedef struct {
    void *egl_lib, *gl_lib;
    EGLDisplay dpy;
    EGLConfig cfg;
    EGLSurface surf;
    EGLContext ctx;
    int have_display, have_context;
    const char *extensions;

    void *(*GetProcAddress)(const char *);
    EGLint (*GetError)(void);
    EGLBoolean (*QueryDevicesEXT)(EGLint, EGLDeviceEXT *, EGLint *);
    EGLBoolean (*QueryDeviceAttribEXT)(EGLDeviceEXT, EGLint, EGLAttrib *);
    EGLDisplay (*GetPlatformDisplayEXT)(EGLenum, void *, const EGLint *);
    EGLBoolean (*Initialize)(EGLDisplay, EGLint *, EGLint *);
    EGLBoolean (*Terminate)(EGLDisplay);
    const char *(*QueryString)(EGLDisplay, EGLint);
    EGLBoolean (*ChooseConfig)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
    EGLSurface (*CreatePbufferSurface)(EGLDisplay, EGLConfig, const EGLint *);
    EGLBoolean (*DestroySurface)(EGLDisplay, EGLSurface);
    EGLBoolean (*BindAPI)(EGLenum);
    EGLContext (*CreateContext)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
    EGLBoolean (*DestroyContext)(EGLDisplay, EGLContext);
    EGLBoolean (*MakeCurrent)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    EGLBoolean (*ReleaseThread)(void);
    /* EGL_KHR_stream, EGL_KHR_image_base, EGL_KHR_fence_sync */
    EGLStreamKHR (*CreateStreamKHR)(EGLDisplay, const EGLint *);
    EGLBoolean (*DestroyStreamKHR)(EGLDisplay, EGLStreamKHR);
    EGLImageKHR (*CreateImageKHR)(EGLDisplay, EGLContext, EGLenum, void *, const EGLint *);
    EGLBoolean (*DestroyImageKHR)(EGLDisplay, EGLImageKHR);
    EGLSyncKHR (*CreateSyncKHR)(EGLDisplay, EGLenum, const EGLint *);
    EGLBoolean (*DestroySyncKHR)(EGLDisplay, EGLSyncKHR);
    EGLint (*ClientWaitSyncKHR)(EGLDisplay, EGLSyncKHR, EGLint, EGLTimeKHR);

    void (*GenBuffers)(GLsizei, GLuint *);
    void (*DeleteBuffers)(GLsizei, const GLuint *);
    void (*BindBuffer)(GLenum, GLuint);
    void (*BufferData)(GLenum, ptrdiff_t, const void *, GLenum);
    void (*GetBufferSubData)(GLenum, ptrdiff_t, ptrdiff_t, void *);
    void (*GenTextures)(GLsizei, GLuint *);
    void (*DeleteTextures)(GLsizei, const GLuint *);
    void (*BindTexture)(GLenum, GLuint);
    void (*TexImage2D)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void *);
    void (*TexParameteri)(GLenum, GLenum, GLint);
    void (*GetTexImage)(GLenum, GLint, GLenum, GLenum, void *);
    void (*PixelStorei)(GLenum, GLint);
    void (*Finish)(void);
    GLenum (*GetError_)(void);
} gfx;

static void *gx_egl_sym(gfx *g, const char *name) {
    void *p = dlsym(g->egl_lib, name);
    if (!p && g->GetProcAddress) p = g->GetProcAddress(name);
    return p;
}

static void *gx_gl_sym(gfx *g, const char *name) {
    void *p = g->gl_lib ? dlsym(g->gl_lib, name) : NULL;
    if (!p && g->GetProcAddress) p = g->GetProcAddress(name);
    return p;
}

static int gx_has_ext(gfx *g, const char *ext) {
    const char *s = g->extensions;
    size_t n = strlen(ext);
    while (s && (s = strstr(s, ext)) != NULL) {
        if (s[n] == ' ' || s[n] == '\0') return 1;
        s += n;
    }
    return 0;
}

#define GX_LOAD(g, field, name) (*(void **)&(g)->field = gx_egl_sym((g), (name)))
#define GX_LOAD_GL(g, field, name) (*(void **)&(g)->field = gx_gl_sym((g), (name)))

/* Opens the EGL display of CUDA device 0 and, when want_context, a desktop OpenGL context
 * current on this thread. Prints one line for each; returns whether the display is open. */
static int gfx_open(gfx *g, int want_context) {
    memset(g, 0, sizeof *g);
    g->egl_lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (g->egl_lib) *(void **)&g->GetProcAddress = dlsym(g->egl_lib, "eglGetProcAddress");
    if (!g->egl_lib || !g->GetProcAddress) {
        printf("EGL: unavailable (no libEGL.so.1)\n");
        return 0;
    }
    GX_LOAD(g, GetError, "eglGetError");
    GX_LOAD(g, QueryDevicesEXT, "eglQueryDevicesEXT");
    GX_LOAD(g, QueryDeviceAttribEXT, "eglQueryDeviceAttribEXT");
    GX_LOAD(g, GetPlatformDisplayEXT, "eglGetPlatformDisplayEXT");
    GX_LOAD(g, Initialize, "eglInitialize");
    GX_LOAD(g, Terminate, "eglTerminate");
    GX_LOAD(g, QueryString, "eglQueryString");
    GX_LOAD(g, ChooseConfig, "eglChooseConfig");
    GX_LOAD(g, CreatePbufferSurface, "eglCreatePbufferSurface");
    GX_LOAD(g, DestroySurface, "eglDestroySurface");
    GX_LOAD(g, BindAPI, "eglBindAPI");
    GX_LOAD(g, CreateContext, "eglCreateContext");
    GX_LOAD(g, DestroyContext, "eglDestroyContext");
    GX_LOAD(g, MakeCurrent, "eglMakeCurrent");
    GX_LOAD(g, ReleaseThread, "eglReleaseThread");
    if (!g->QueryDevicesEXT || !g->GetPlatformDisplayEXT || !g->Initialize || !g->QueryString) {
        printf("EGL: unavailable (no EGL_EXT_device_enumeration / EGL_EXT_platform_device)\n");
        return 0;
    }
    EGLDeviceEXT devs[16];
    EGLint n = 0;
    if (!g->QueryDevicesEXT(16, devs, &n) || n <= 0) {
        printf("EGL: unavailable (no EGL device)\n");
        return 0;
    }
    /* The device of CUDA device 0 first, then the others in order. */
    int order[16], k = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n && i < 16; i++) {
            EGLAttrib cuda = -1;
            int is0 = g->QueryDeviceAttribEXT && g->QueryDeviceAttribEXT(devs[i], GX_EGL_CUDA_DEVICE_NV, &cuda) && cuda == 0;
            if (is0 == (pass == 0)) order[k++] = i;
        }
    }
    for (int j = 0; j < k && !g->have_display; j++) {
        EGLDisplay d = g->GetPlatformDisplayEXT(GX_EGL_PLATFORM_DEVICE_EXT, devs[order[j]], NULL);
        EGLint major = 0, minor = 0;
        if (d && g->Initialize(d, &major, &minor)) {
            g->dpy = d;
            g->have_display = 1;
        }
    }
    if (!g->have_display) {
        printf("EGL: unavailable (no device display initializes)\n");
        return 0;
    }
    g->extensions = g->QueryString(g->dpy, GX_EGL_EXTENSIONS);
    GX_LOAD(g, CreateStreamKHR, "eglCreateStreamKHR");
    GX_LOAD(g, DestroyStreamKHR, "eglDestroyStreamKHR");
    GX_LOAD(g, CreateImageKHR, "eglCreateImageKHR");
    GX_LOAD(g, DestroyImageKHR, "eglDestroyImageKHR");
    GX_LOAD(g, CreateSyncKHR, "eglCreateSyncKHR");
    GX_LOAD(g, DestroySyncKHR, "eglDestroySyncKHR");
    GX_LOAD(g, ClientWaitSyncKHR, "eglClientWaitSyncKHR");
    printf("EGL: device display\n");
    if (!want_context) return 1;

    const EGLint cfg_attrs[] = {GX_EGL_SURFACE_TYPE, GX_EGL_PBUFFER_BIT, GX_EGL_RENDERABLE_TYPE, GX_EGL_OPENGL_BIT,
                                GX_EGL_RED_SIZE, 8, GX_EGL_GREEN_SIZE, 8, GX_EGL_BLUE_SIZE, 8, GX_EGL_ALPHA_SIZE, 8,
                                GX_EGL_NONE};
    const EGLint pb_attrs[] = {GX_EGL_WIDTH, 16, GX_EGL_HEIGHT, 16, GX_EGL_NONE};
    EGLint ncfg = 0;
    if (!g->ChooseConfig(g->dpy, cfg_attrs, &g->cfg, 1, &ncfg) || ncfg < 1) {
        printf("GL context: unavailable (no OpenGL pbuffer config)\n");
        return 1;
    }
    g->surf = g->CreatePbufferSurface(g->dpy, g->cfg, pb_attrs);
    if (!g->surf || !g->BindAPI(GX_EGL_OPENGL_API)) {
        printf("GL context: unavailable (no pbuffer or no OpenGL API)\n");
        return 1;
    }
    g->ctx = g->CreateContext(g->dpy, g->cfg, NULL, NULL);
    if (!g->ctx || !g->MakeCurrent(g->dpy, g->surf, g->surf, g->ctx)) {
        printf("GL context: unavailable (no context)\n");
        return 1;
    }
    g->gl_lib = dlopen("libOpenGL.so.0", RTLD_NOW | RTLD_LOCAL);
    GX_LOAD_GL(g, GenBuffers, "glGenBuffers");
    GX_LOAD_GL(g, DeleteBuffers, "glDeleteBuffers");
    GX_LOAD_GL(g, BindBuffer, "glBindBuffer");
    GX_LOAD_GL(g, BufferData, "glBufferData");
    GX_LOAD_GL(g, GetBufferSubData, "glGetBufferSubData");
    GX_LOAD_GL(g, GenTextures, "glGenTextures");
    GX_LOAD_GL(g, DeleteTextures, "glDeleteTextures");
    GX_LOAD_GL(g, BindTexture, "glBindTexture");
    GX_LOAD_GL(g, TexImage2D, "glTexImage2D");
    GX_LOAD_GL(g, TexParameteri, "glTexParameteri");
    GX_LOAD_GL(g, GetTexImage, "glGetTexImage");
    GX_LOAD_GL(g, PixelStorei, "glPixelStorei");
    GX_LOAD_GL(g, Finish, "glFinish");
    GX_LOAD_GL(g, GetError_, "glGetError");
    if (!g->GenBuffers || !g->DeleteBuffers || !g->BindBuffer || !g->BufferData || !g->GetBufferSubData ||
        !g->GenTextures || !g->DeleteTextures || !g->BindTexture || !g->TexImage2D || !g->TexParameteri ||
        !g->GetTexImage || !g->PixelStorei || !g->Finish || !g->GetError_) {
        printf("GL context: unavailable (GL functions missing)\n");
        return 1;
    }
    g->have_context = 1;
    printf("GL context: OpenGL, current\n");
    return 1;
}

/* Releases the context and the display (after every CUDA resource made from them is gone). */
static void gfx_close(gfx *g) {
    if (g->have_display) {
        if (g->ctx) {
            g->MakeCurrent(g->dpy, NULL, NULL, NULL);
            g->DestroyContext(g->dpy, g->ctx);
        }
        if (g->surf) g->DestroySurface(g->dpy, g->surf);
        g->Terminate(g->dpy);
    }
    if (g->ReleaseThread) g->ReleaseThread();
}

/* A new w x h RGBA8 2D texture (nearest filtering, no data), bound. */
static GLuint gx_rgba8_texture(gfx *g, GLsizei w, GLsizei h) {
    GLuint tex = 0;
    g->GenTextures(1, &tex);
    g->BindTexture(GX_GL_TEXTURE_2D, tex);
    g->TexParameteri(GX_GL_TEXTURE_2D, GX_GL_TEXTURE_MIN_FILTER, GX_GL_NEAREST);
    g->TexParameteri(GX_GL_TEXTURE_2D, GX_GL_TEXTURE_MAG_FILTER, GX_GL_NEAREST);
    g->TexImage2D(GX_GL_TEXTURE_2D, 0, GX_GL_RGBA8, w, h, 0, GX_GL_RGBA, GX_GL_UNSIGNED_BYTE, NULL);
    return tex;
}

/* A fake VdpGetProcAddress: every VDPAU entry point is missing (there is no VDPAU device). */
static int gx_no_vdpau_calls = 0;
static int gx_vdp_get_proc_address(uint32_t device, uint32_t function_id, void **function_pointer) {
    (void)device;
    (void)function_id;
    gx_no_vdpau_calls++;
    if (function_pointer) *function_pointer = NULL;
    return 1; /* VDP_STATUS_NO_IMPLEMENTATION */
}

#endif
