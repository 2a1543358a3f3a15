/* ctest: gpu
 * OpenGL interoperability on a headless EGL context (ctest/gfx_util.h): a GL buffer and a GL
 * texture registered, mapped, written by CUDA copies and read back with glGetBufferSubData and
 * glGetTexImage; the deprecated buffer-object functions; the common graphics-resource calls
 * and their errors; cudaGLGetDevices, cudaGLSetGLDevice; VDPAU's error paths (no display, so no
 * VDPAU device). Without an OpenGL context (no EGL, no GL libraries), only the calls that need
 * none and the errors of those that do.
 */
/* NVIDIA's way of declaring the deprecated buffer-object functions without the attribute. */
#define CUDA_ENABLE_DEPRECATED
#include "ctest.h"
#include "gfx_util.h"
#include <cuda_gl_interop.h>
#include <cuda_vdpau_interop.h>

#define W 16
#define H 16
#define BUF_BYTES 4096

static gfx g;

static void show_gl_error(const char *label) {
    GLenum e = g.GetError_();
    printf("%s: GL error 0x%x\n", label, e);
}

/* A buffer registered with the current API, mapped, written and read by CUDA, checked by GL. */
static void buffer_interop(void) {
    GLuint buf = 0;
    g.GenBuffers(1, &buf);
    g.BindBuffer(GX_GL_ARRAY_BUFFER, buf);
    g.BufferData(GX_GL_ARRAY_BUFFER, BUF_BYTES, NULL, GX_GL_DYNAMIC_DRAW);
    show_gl_error("glBufferData");

    cudaGraphicsResource_t res = NULL;
    OK(SHOW("cudaGraphicsGLRegisterBuffer", cudaGraphicsGLRegisterBuffer(&res, buf, cudaGraphicsRegisterFlagsNone)));
    if (!res) return;
    OK(SHOW("SetMapFlags(WriteDiscard)", cudaGraphicsResourceSetMapFlags(res, cudaGraphicsMapFlagsWriteDiscard)));
    SHOW("SetMapFlags(3)", cudaGraphicsResourceSetMapFlags(res, 3));
    SHOW_LAST("SetMapFlags(3)");
    SHOW("SetMapFlags(0x100)", cudaGraphicsResourceSetMapFlags(res, 0x100));
    SHOW_LAST("SetMapFlags(0x100)");
    OK(SHOW("SetMapFlags(None)", cudaGraphicsResourceSetMapFlags(res, cudaGraphicsMapFlagsNone)));

    void *p = NULL;
    size_t size = 0;
    SHOW("GetMappedPointer before map", cudaGraphicsResourceGetMappedPointer(&p, &size, res));
    SHOW_LAST("GetMappedPointer before map");

    OK(SHOW("cudaGraphicsMapResources(buffer)", cudaGraphicsMapResources(1, &res, 0)));
    SHOW("map again", cudaGraphicsMapResources(1, &res, 0));
    SHOW_LAST("map again");
    SHOW("SetMapFlags while mapped", cudaGraphicsResourceSetMapFlags(res, cudaGraphicsMapFlagsReadOnly));
    SHOW_LAST("SetMapFlags while mapped");
    OK(SHOW("GetMappedPointer", cudaGraphicsResourceGetMappedPointer(&p, &size, res)));
    SHOWU("mapped size", size);
    CHECK(p != NULL && size == BUF_BYTES);
    cudaArray_t arr = NULL;
    SHOW("SubResourceGetMappedArray(buffer)", cudaGraphicsSubResourceGetMappedArray(&arr, res, 0, 0));
    SHOW_LAST("SubResourceGetMappedArray(buffer)");
    cudaMipmappedArray_t mm = NULL;
    SHOW("GetMappedMipmappedArray(buffer)", cudaGraphicsResourceGetMappedMipmappedArray(&mm, res));
    SHOW_LAST("GetMappedMipmappedArray(buffer)");

    unsigned char host[BUF_BYTES], back[BUF_BYTES];
    for (int i = 0; i < BUF_BYTES; i++) host[i] = (unsigned char)(i * 7 + 3);
    if (p) {
        OK(SHOW("cudaMemcpy to the mapped buffer", cudaMemcpy(p, host, BUF_BYTES, cudaMemcpyHostToDevice)));
        OK(SHOW("cudaMemset of its first 16 bytes", cudaMemset(p, 0xab, 16)));
        memset(back, 0, sizeof back);
        OK(cudaMemcpy(back, p, BUF_BYTES, cudaMemcpyDeviceToHost));
        CHECK(back[0] == 0xab && back[15] == 0xab && back[16] == host[16] && back[BUF_BYTES - 1] == host[BUF_BYTES - 1]);
    }
    OK(SHOW("cudaGraphicsUnmapResources(buffer)", cudaGraphicsUnmapResources(1, &res, 0)));
    SHOW("unmap again", cudaGraphicsUnmapResources(1, &res, 0));
    SHOW_LAST("unmap again");
    SHOW("GetMappedPointer after unmap", cudaGraphicsResourceGetMappedPointer(&p, &size, res));
    SHOW_LAST("GetMappedPointer after unmap");

    memset(back, 0, sizeof back);
    g.GetBufferSubData(GX_GL_ARRAY_BUFFER, 0, BUF_BYTES, back);
    show_gl_error("glGetBufferSubData");
    int same = back[0] == 0xab && back[15] == 0xab && memcmp(back + 16, host + 16, BUF_BYTES - 16) == 0;
    printf("GL reads what CUDA wrote: %d\n", same);
    CHECK(same);

    /* Map with a stream of its own, two resources at once (the same twice is an error). */
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));
    cudaGraphicsResource_t two[2] = {res, res};
    SHOW("map the same resource twice in one call", cudaGraphicsMapResources(2, two, s));
    SHOW_LAST("map the same resource twice in one call");
    OK(SHOW("map on a stream", cudaGraphicsMapResources(1, &res, s)));
    OK(SHOW("unmap on a stream", cudaGraphicsUnmapResources(1, &res, s)));
    OK(cudaStreamSynchronize(s));
    OK(cudaStreamDestroy(s));

    OK(SHOW("cudaGraphicsUnregisterResource(buffer)", cudaGraphicsUnregisterResource(res)));
    /* Read-only and write-discard registrations. */
    cudaGraphicsResource_t ro = NULL;
    SHOW("RegisterBuffer(ReadOnly)", cudaGraphicsGLRegisterBuffer(&ro, buf, cudaGraphicsRegisterFlagsReadOnly));
    if (ro) OK(cudaGraphicsUnregisterResource(ro));
    SHOW("RegisterBuffer(WriteDiscard)", cudaGraphicsGLRegisterBuffer(&ro, buf, cudaGraphicsRegisterFlagsWriteDiscard));
    if (ro) OK(cudaGraphicsUnregisterResource(ro));
    ro = NULL;
    SHOW("RegisterBuffer(flags 0x40)", cudaGraphicsGLRegisterBuffer(&ro, buf, 0x40));
    SHOW_LAST("RegisterBuffer(flags 0x40)");
    if (ro) OK(cudaGraphicsUnregisterResource(ro));
    ro = NULL;
    SHOW("RegisterBuffer(no such buffer)", cudaGraphicsGLRegisterBuffer(&ro, 98765, 0));
    SHOW_LAST("RegisterBuffer(no such buffer)");
    if (ro) OK(cudaGraphicsUnregisterResource(ro));
    ro = NULL;
    SHOW("RegisterBuffer(buffer 0)", cudaGraphicsGLRegisterBuffer(&ro, 0, 0));
    SHOW_LAST("RegisterBuffer(buffer 0)");
    if (ro) OK(cudaGraphicsUnregisterResource(ro));
    g.DeleteBuffers(1, &buf);
}

/* A 2D texture: the mapped array's descriptor, CUDA writes it, GL reads it back. */
static void texture_interop(void) {
    GLuint tex = gx_rgba8_texture(&g, W, H);
    show_gl_error("glTexImage2D");

    cudaGraphicsResource_t res = NULL;
    SHOW("RegisterImage(wrong target)", cudaGraphicsGLRegisterImage(&res, tex, GX_GL_TEXTURE_3D, 0));
    SHOW_LAST("RegisterImage(wrong target)");
    if (res) OK(cudaGraphicsUnregisterResource(res));
    res = NULL;
    SHOW("RegisterImage(no such texture)", cudaGraphicsGLRegisterImage(&res, 98765, GX_GL_TEXTURE_2D, 0));
    SHOW_LAST("RegisterImage(no such texture)");
    if (res) OK(cudaGraphicsUnregisterResource(res));
    res = NULL;
    OK(SHOW("cudaGraphicsGLRegisterImage(SurfaceLoadStore)",
            cudaGraphicsGLRegisterImage(&res, tex, GX_GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore)));
    if (!res) return;
    cudaArray_t arr = NULL;
    SHOW("SubResourceGetMappedArray before map", cudaGraphicsSubResourceGetMappedArray(&arr, res, 0, 0));
    SHOW_LAST("SubResourceGetMappedArray before map");
    OK(SHOW("cudaGraphicsMapResources(texture)", cudaGraphicsMapResources(1, &res, 0)));
    OK(SHOW("SubResourceGetMappedArray", cudaGraphicsSubResourceGetMappedArray(&arr, res, 0, 0)));
    cudaArray_t other = NULL;
    SHOW("SubResourceGetMappedArray(index 1)", cudaGraphicsSubResourceGetMappedArray(&other, res, 1, 0));
    SHOW_LAST("SubResourceGetMappedArray(index 1)");
    SHOW("SubResourceGetMappedArray(level 1)", cudaGraphicsSubResourceGetMappedArray(&other, res, 0, 1));
    SHOW_LAST("SubResourceGetMappedArray(level 1)");
    void *p = NULL;
    size_t size = 0;
    SHOW("GetMappedPointer(texture)", cudaGraphicsResourceGetMappedPointer(&p, &size, res));
    SHOW_LAST("GetMappedPointer(texture)");
    cudaMipmappedArray_t mm = NULL;
    OK(SHOW("GetMappedMipmappedArray(texture)", cudaGraphicsResourceGetMappedMipmappedArray(&mm, res)));
    if (mm) {
        cudaArray_t level0 = NULL;
        OK(SHOW("cudaGetMipmappedArrayLevel(0)", cudaGetMipmappedArrayLevel(&level0, mm, 0)));
    }
    if (arr) {
        struct cudaChannelFormatDesc d;
        struct cudaExtent e;
        unsigned int flags = 0;
        memset(&d, 0, sizeof d);
        memset(&e, 0, sizeof e);
        OK(SHOW("cudaArrayGetInfo(mapped array)", cudaArrayGetInfo(&d, &e, &flags, arr)));
        printf("array format: x=%d y=%d z=%d w=%d kind=%d\n", d.x, d.y, d.z, d.w, (int)d.f);
        printf("array extent: %zu x %zu x %zu, flags 0x%x\n", e.width, e.height, e.depth, flags);
        unsigned char host[W * H * 4];
        for (int i = 0; i < W * H * 4; i++) host[i] = (unsigned char)(i * 13 + 1);
        OK(SHOW("cudaMemcpy2DToArray into the texture",
                cudaMemcpy2DToArray(arr, 0, 0, host, W * 4, W * 4, H, cudaMemcpyHostToDevice)));
        unsigned char back[W * H * 4];
        memset(back, 0, sizeof back);
        OK(cudaMemcpy2DFromArray(back, W * 4, arr, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
        CHECK(memcmp(back, host, sizeof back) == 0);
        OK(SHOW("cudaGraphicsUnmapResources(texture)", cudaGraphicsUnmapResources(1, &res, 0)));
        memset(back, 0, sizeof back);
        g.PixelStorei(GX_GL_PACK_ALIGNMENT, 1);
        g.GetTexImage(GX_GL_TEXTURE_2D, 0, GX_GL_RGBA, GX_GL_UNSIGNED_BYTE, back);
        show_gl_error("glGetTexImage");
        int same = memcmp(back, host, sizeof back) == 0;
        printf("GL reads the texels CUDA wrote: %d\n", same);
        CHECK(same);
    } else {
        OK(SHOW("cudaGraphicsUnmapResources(texture)", cudaGraphicsUnmapResources(1, &res, 0)));
    }
    OK(SHOW("cudaGraphicsUnregisterResource(texture)", cudaGraphicsUnregisterResource(res)));
    g.DeleteTextures(1, &tex);
}

/* The deprecated buffer-object functions. */
static void buffer_objects(void) {
    GLuint buf = 0;
    g.GenBuffers(1, &buf);
    g.BindBuffer(GX_GL_ARRAY_BUFFER, buf);
    g.BufferData(GX_GL_ARRAY_BUFFER, BUF_BYTES, NULL, GX_GL_DYNAMIC_DRAW);
    void *p = NULL;
    SHOW("cudaGLMapBufferObject(unregistered)", cudaGLMapBufferObject(&p, buf));
    SHOW_LAST("cudaGLMapBufferObject(unregistered)");
    SHOW("cudaGLSetBufferObjectMapFlags(unregistered)", cudaGLSetBufferObjectMapFlags(buf, cudaGLMapFlagsNone));
    SHOW_LAST("cudaGLSetBufferObjectMapFlags(unregistered)");
    SHOW("cudaGLUnmapBufferObject(unregistered)", cudaGLUnmapBufferObject(buf));
    SHOW_LAST("cudaGLUnmapBufferObject(unregistered)");
    SHOW("cudaGLUnregisterBufferObject(unregistered)", cudaGLUnregisterBufferObject(buf));
    SHOW_LAST("cudaGLUnregisterBufferObject(unregistered)");

    cudaError_t r = SHOW("cudaGLRegisterBufferObject", cudaGLRegisterBufferObject(buf));
    if (r == cudaSuccess) {
        SHOW("register again", cudaGLRegisterBufferObject(buf));
        SHOW_LAST("register again");
        SHOW("cudaGLSetBufferObjectMapFlags(WriteDiscard)", cudaGLSetBufferObjectMapFlags(buf, cudaGLMapFlagsWriteDiscard));
        SHOW("cudaGLSetBufferObjectMapFlags(7)", cudaGLSetBufferObjectMapFlags(buf, 7));
        SHOW_LAST("cudaGLSetBufferObjectMapFlags(7)");
        r = SHOW("cudaGLMapBufferObject", cudaGLMapBufferObject(&p, buf));
        if (r == cudaSuccess && p) {
            OK(SHOW("cudaMemset of the mapped buffer object", cudaMemset(p, 0x5a, BUF_BYTES)));
            SHOW("map again", cudaGLMapBufferObject(&p, buf));
            SHOW_LAST("map again");
            SHOW("cudaGLSetBufferObjectMapFlags while mapped", cudaGLSetBufferObjectMapFlags(buf, cudaGLMapFlagsNone));
            SHOW_LAST("cudaGLSetBufferObjectMapFlags while mapped");
            OK(SHOW("cudaGLUnmapBufferObject", cudaGLUnmapBufferObject(buf)));
            unsigned char back[BUF_BYTES];
            memset(back, 0, sizeof back);
            g.GetBufferSubData(GX_GL_ARRAY_BUFFER, 0, BUF_BYTES, back);
            int all = 1;
            for (int i = 0; i < BUF_BYTES; i++) all &= back[i] == 0x5a;
            printf("GL reads the buffer object CUDA wrote: %d\n", all);
            CHECK(all);
        }
        cudaStream_t s = NULL;
        OK(cudaStreamCreate(&s));
        p = NULL;
        r = SHOW("cudaGLMapBufferObjectAsync", cudaGLMapBufferObjectAsync(&p, buf, s));
        if (r == cudaSuccess && p) {
            OK(SHOW("cudaMemsetAsync of the mapped buffer object", cudaMemsetAsync(p, 0x33, BUF_BYTES, s)));
            OK(SHOW("cudaGLUnmapBufferObjectAsync", cudaGLUnmapBufferObjectAsync(buf, s)));
            OK(cudaStreamSynchronize(s));
            unsigned char back[BUF_BYTES];
            memset(back, 0, sizeof back);
            g.GetBufferSubData(GX_GL_ARRAY_BUFFER, 0, BUF_BYTES, back);
            printf("GL reads the asynchronous write: %d\n", back[0] == 0x33 && back[BUF_BYTES - 1] == 0x33);
        }
        SHOW("cudaGLUnmapBufferObjectAsync(unmapped)", cudaGLUnmapBufferObjectAsync(buf, s));
        SHOW_LAST("cudaGLUnmapBufferObjectAsync(unmapped)");
        OK(cudaStreamDestroy(s));
        SHOW("cudaGLUnregisterBufferObject", cudaGLUnregisterBufferObject(buf));
    }
    SHOW_LAST("buffer objects");
    g.DeleteBuffers(1, &buf);
}

static void gl_devices(void) {
    unsigned int count = 99;
    int devs[4] = {-5, -5, -5, -5};
    cudaError_t r = SHOW("cudaGLGetDevices(All)", cudaGLGetDevices(&count, devs, 4, cudaGLDeviceListAll));
    if (r == cudaSuccess) {
        SHOWU("GL devices", count);
        SHOWI("first GL device", devs[0]);
    } else {
        SHOW_LAST("cudaGLGetDevices(All)");
    }
    count = 99;
    r = SHOW("cudaGLGetDevices(CurrentFrame)", cudaGLGetDevices(&count, devs, 4, cudaGLDeviceListCurrentFrame));
    if (r == cudaSuccess) SHOWU("GL devices (current frame)", count);
    SHOW_LAST("cudaGLGetDevices(CurrentFrame)");
    count = 99;
    r = SHOW("cudaGLGetDevices(NextFrame)", cudaGLGetDevices(&count, devs, 4, cudaGLDeviceListNextFrame));
    if (r == cudaSuccess) SHOWU("GL devices (next frame)", count);
    SHOW_LAST("cudaGLGetDevices(NextFrame)");
    count = 99;
    SHOW("cudaGLGetDevices(list 0)", cudaGLGetDevices(&count, devs, 4, (enum cudaGLDeviceList)0));
    SHOW_LAST("cudaGLGetDevices(list 0)");
    SHOW("cudaGLGetDevices(list 4)", cudaGLGetDevices(&count, devs, 4, (enum cudaGLDeviceList)4));
    SHOW_LAST("cudaGLGetDevices(list 4)");
    count = 99;
    r = SHOW("cudaGLGetDevices(room for 0)", cudaGLGetDevices(&count, devs, 0, cudaGLDeviceListAll));
    if (r == cudaSuccess) SHOWU("GL devices (room for 0)", count);
    SHOW_LAST("cudaGLGetDevices(room for 0)");
}

/* Registration without a GL context: each fails. */
static void no_context(void) {
    cudaGraphicsResource_t res = NULL;
    SHOW("RegisterBuffer without GL", cudaGraphicsGLRegisterBuffer(&res, 1, 0));
    SHOW_LAST("RegisterBuffer without GL");
    if (res) OK(cudaGraphicsUnregisterResource(res));
    res = NULL;
    SHOW("RegisterImage without GL", cudaGraphicsGLRegisterImage(&res, 1, GX_GL_TEXTURE_2D, 0));
    SHOW_LAST("RegisterImage without GL");
    if (res) OK(cudaGraphicsUnregisterResource(res));
    SHOW("cudaGLRegisterBufferObject without GL", cudaGLRegisterBufferObject(1));
    SHOW_LAST("cudaGLRegisterBufferObject without GL");
    void *p = NULL;
    SHOW("cudaGLMapBufferObject without GL", cudaGLMapBufferObject(&p, 1));
    SHOW_LAST("cudaGLMapBufferObject without GL");
    SHOW("cudaGLUnmapBufferObject without GL", cudaGLUnmapBufferObject(1));
    SHOW_LAST("cudaGLUnmapBufferObject without GL");
    SHOW("cudaGLUnregisterBufferObject without GL", cudaGLUnregisterBufferObject(1));
    SHOW_LAST("cudaGLUnregisterBufferObject without GL");
}

/* cudaGLSetGLDevice: deprecated; it fails once the device's primary context is active (as here). */
static void set_gl_device(void) {
    SHOW("cudaGLSetGLDevice(-1)", cudaGLSetGLDevice(-1));
    SHOW_LAST("cudaGLSetGLDevice(-1)");
    int n = 0;
    OK(cudaGetDeviceCount(&n));
    SHOW("cudaGLSetGLDevice(count)", cudaGLSetGLDevice(n));
    SHOW_LAST("cudaGLSetGLDevice(count)");
    SHOW("cudaGLSetGLDevice(0)", cudaGLSetGLDevice(0));
    SHOW_LAST("cudaGLSetGLDevice(0)");
    int d = -1;
    OK(cudaGetDevice(&d));
    SHOWI("device after cudaGLSetGLDevice", d);
}

/* The common calls with a null resource. */
static void null_resources(void) {
    cudaGraphicsResource_t none = NULL;
    void *p = NULL;
    size_t size = 0;
    cudaArray_t arr = NULL;
    cudaMipmappedArray_t mm = NULL;
    SHOW("UnregisterResource(NULL)", cudaGraphicsUnregisterResource(NULL));
    SHOW_LAST("UnregisterResource(NULL)");
    SHOW("SetMapFlags(NULL)", cudaGraphicsResourceSetMapFlags(NULL, 0));
    SHOW_LAST("SetMapFlags(NULL)");
    SHOW("GetMappedPointer(NULL)", cudaGraphicsResourceGetMappedPointer(&p, &size, NULL));
    SHOW_LAST("GetMappedPointer(NULL)");
    SHOW("SubResourceGetMappedArray(NULL)", cudaGraphicsSubResourceGetMappedArray(&arr, NULL, 0, 0));
    SHOW_LAST("SubResourceGetMappedArray(NULL)");
    SHOW("GetMappedMipmappedArray(NULL)", cudaGraphicsResourceGetMappedMipmappedArray(&mm, NULL));
    SHOW_LAST("GetMappedMipmappedArray(NULL)");
    SHOW("MapResources(0 resources)", cudaGraphicsMapResources(0, &none, 0));
    SHOW_LAST("MapResources(0 resources)");
    SHOW("UnmapResources(0 resources)", cudaGraphicsUnmapResources(0, &none, 0));
    SHOW_LAST("UnmapResources(0 resources)");
    SHOW("MapResources(a null resource)", cudaGraphicsMapResources(1, &none, 0));
    SHOW_LAST("MapResources(a null resource)");
    SHOW("UnmapResources(a null resource)", cudaGraphicsUnmapResources(1, &none, 0));
    SHOW_LAST("UnmapResources(a null resource)");
}

/* VDPAU: no display, so no VDPAU device; its entry points all missing (gfx_util.h). */
static void vdpau_errors(void) {
    VdpGetProcAddress *gpa = (VdpGetProcAddress *)gx_vdp_get_proc_address;
    cudaGraphicsResource_t res = NULL;
    SHOW("VDPAURegisterVideoSurface", cudaGraphicsVDPAURegisterVideoSurface(&res, 1, 0));
    SHOW_LAST("VDPAURegisterVideoSurface");
    if (res) OK(cudaGraphicsUnregisterResource(res));
    res = NULL;
    SHOW("VDPAURegisterOutputSurface", cudaGraphicsVDPAURegisterOutputSurface(&res, 1, 0));
    SHOW_LAST("VDPAURegisterOutputSurface");
    if (res) OK(cudaGraphicsUnregisterResource(res));
    SHOW("cudaVDPAUSetVDPAUDevice(-1)", cudaVDPAUSetVDPAUDevice(-1, 1, gpa));
    SHOW_LAST("cudaVDPAUSetVDPAUDevice(-1)");
    SHOW("cudaVDPAUSetVDPAUDevice(99)", cudaVDPAUSetVDPAUDevice(99, 1, gpa));
    SHOW_LAST("cudaVDPAUSetVDPAUDevice(99)");
    /* Device 0's primary context is active by now. */
    SHOW("cudaVDPAUSetVDPAUDevice(0, active)", cudaVDPAUSetVDPAUDevice(0, 1, gpa));
    SHOW_LAST("cudaVDPAUSetVDPAUDevice(0, active)");
    int d = -7;
    SHOW("cudaVDPAUGetDevice(fake VDPAU)", cudaVDPAUGetDevice(&d, 1, gpa));
    SHOW_LAST("cudaVDPAUGetDevice(fake VDPAU)");
    SHOWI("device from cudaVDPAUGetDevice", d);
    printf("VDPAU entry points asked for: %d\n", gx_no_vdpau_calls > 0);
}

/* A mapped buffer's pointer or size alone, a buffer object mapped to nowhere (null out pointers,
 * which the driver may get). */
static void mapped_pointer_alone(void) {
    GLuint buf = 0;
    g.GenBuffers(1, &buf);
    g.BindBuffer(GX_GL_ARRAY_BUFFER, buf);
    g.BufferData(GX_GL_ARRAY_BUFFER, BUF_BYTES, NULL, GX_GL_DYNAMIC_DRAW);
    cudaGraphicsResource_t res = NULL;
    OK(cudaGraphicsGLRegisterBuffer(&res, buf, 0));
    if (res && cudaGraphicsMapResources(1, &res, 0) == cudaSuccess) {
        void *p = NULL, *p_only = NULL;
        size_t size = 0, size_only = 0;
        OK(cudaGraphicsResourceGetMappedPointer(&p, &size, res));
        SHOW("GetMappedPointer(NULL size)", cudaGraphicsResourceGetMappedPointer(&p_only, NULL, res));
        SHOW_LAST("GetMappedPointer(NULL size)");
        printf("pointer without size is the mapping: %d\n", p_only == p);
        SHOW("GetMappedPointer(NULL devPtr)", cudaGraphicsResourceGetMappedPointer(NULL, &size_only, res));
        SHOW_LAST("GetMappedPointer(NULL devPtr)");
        printf("size without pointer is the mapping's: %d\n", size_only == size);
        OK(cudaGraphicsUnmapResources(1, &res, 0));
    }
    if (res) OK(cudaGraphicsUnregisterResource(res));
    if (cudaGLRegisterBufferObject(buf) == cudaSuccess) {
        SHOW("cudaGLMapBufferObject(NULL)", cudaGLMapBufferObject(NULL, buf));
        SHOW_LAST("cudaGLMapBufferObject(NULL)");
        cudaGLUnmapBufferObject(buf);
        cudaGLUnregisterBufferObject(buf);
        cudaGetLastError();
    }
    g.DeleteBuffers(1, &buf);
}

int main(void) {
    OK(SHOW("cudaFree(NULL)", cudaFree(NULL)));
    int context = gfx_open(&g, 1) && g.have_context;
    if (context) {
        gl_devices();
        buffer_interop();
        texture_interop();
        buffer_objects();
        set_gl_device();
        null_resources();
        /* No GL context current: registration fails. */
        g.MakeCurrent(g.dpy, NULL, NULL, NULL);
        printf("GL context: released\n");
        no_context();
        context = g.MakeCurrent(g.dpy, g.surf, g.surf, g.ctx);
        printf("GL context: current again: %d\n", context);
    } else {
        gl_devices();
        no_context();
        set_gl_device();
        null_resources();
    }
    vdpau_errors();
    if (context) mapped_pointer_alone();
    if (g.have_display) gfx_close(&g);
    /* Null out pointers last: NVIDIA's runtime may hand them to the driver. */
    cudaGraphicsResource_t none = NULL;
    SHOW("RegisterBuffer(NULL out)", cudaGraphicsGLRegisterBuffer(NULL, 1, 0));
    SHOW_LAST("RegisterBuffer(NULL out)");
    SHOW("RegisterImage(NULL out)", cudaGraphicsGLRegisterImage(NULL, 1, GX_GL_TEXTURE_2D, 0));
    SHOW_LAST("RegisterImage(NULL out)");
    SHOW("SubResourceGetMappedArray(NULL out)", cudaGraphicsSubResourceGetMappedArray(NULL, none, 0, 0));
    SHOW_LAST("SubResourceGetMappedArray(NULL out)");
    SHOW("GetMappedMipmappedArray(NULL out)", cudaGraphicsResourceGetMappedMipmappedArray(NULL, none));
    SHOW_LAST("GetMappedMipmappedArray(NULL out)");
    /* (No cudaGLGetDevices with a NULL count here: NVIDIA's runtime passes its own count to
     * the driver, as ours does, and after the display is closed the driver answered that
     * call with CUDA_ERROR_INVALID_CONTEXT for NVIDIA's and CUDA_ERROR_INVALID_GRAPHICS_CONTEXT
     * for ours: driver state this test does not pin down.) */
    SHOW("cudaVDPAUGetDevice(NULL device)", cudaVDPAUGetDevice(NULL, 1, (VdpGetProcAddress *)gx_vdp_get_proc_address));
    SHOW_LAST("cudaVDPAUGetDevice(NULL device)");
    SHOW("MapResources(NULL array)", cudaGraphicsMapResources(1, NULL, 0));
    SHOW_LAST("MapResources(NULL array)");
    DONE();
}
