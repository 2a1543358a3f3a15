/* ctest: gpu
 * EGL interoperability on a headless EGL device display (ctest/gfx_util.h): EGL streams with
 * CUDA as producer and consumer (pitch-linear ARGB, array ARGB and planar YUV 4:2:0 frames
 * presented, acquired, read, released and returned, every field of the frames printed), an
 * EGL image of a GL texture registered and mapped as an EGL frame, cudaEventCreateFromEGLSync
 * on a fence sync; the error paths of each, and of the frame conversions. Without EGL (or
 * without the extension a part needs), that part prints so and checks its error paths only.
 */
#include "ctest.h"
#include "gfx_util.h"
#include <cuda_egl_interop.h>
#include <unistd.h>

#define W 32
#define H 8
#define TIMEOUT_US 5000000

static gfx g;

static struct cudaChannelFormatDesc rgba8(void) { return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned); }

/* Every field of a frame's planes (pointers only as null or not). */
static void print_frame(const char *label, const cudaEglFrame *f) {
    printf("%s: planes %u, type %d, color format %d\n", label, f->planeCount, (int)f->frameType, (int)f->eglColorFormat);
    for (unsigned i = 0; i < f->planeCount && i < CUDA_EGL_MAX_PLANES; i++) {
        const cudaEglPlaneDesc *p = &f->planeDesc[i];
        printf("%s: plane %u: %u x %u x %u, pitch %u, channels %u, desc %d %d %d %d kind %d\n", label, i, p->width,
               p->height, p->depth, p->pitch, p->numChannels, p->channelDesc.x, p->channelDesc.y, p->channelDesc.z,
               p->channelDesc.w, (int)p->channelDesc.f);
        if (f->frameType == cudaEglFrameTypePitch) {
            const struct cudaPitchedPtr *pp = &f->frame.pPitch[i];
            printf("%s: plane %u: pointer %s, pitch %zu, xsize %zu, ysize %zu\n", label, i, pp->ptr ? "set" : "null",
                   pp->pitch, pp->xsize, pp->ysize);
        } else {
            printf("%s: plane %u: array %s\n", label, i, f->frame.pArray[i] ? "set" : "null");
        }
    }
}

static void plane(cudaEglFrame *f, int i, unsigned w, unsigned h, unsigned pitch, unsigned channels,
                  struct cudaChannelFormatDesc d) {
    f->planeDesc[i].width = w;
    f->planeDesc[i].height = h;
    f->planeDesc[i].depth = 1;
    f->planeDesc[i].pitch = pitch;
    f->planeDesc[i].numChannels = channels;
    f->planeDesc[i].channelDesc = d;
}

/* One frame through a fresh stream: CUDA presents it, CUDA acquires it, reads it, releases
 * it, and the producer gets it back. kind: 0 pitch ARGB, 1 array ARGB, 2 pitch YUV 4:2:0. */
static void stream_round(int kind) {
    const char *name = kind == 0 ? "pitch ARGB" : kind == 1 ? "array ARGB" : "pitch YUV420 planar";
    printf("-- stream round: %s\n", name);
    /* FIFO mode: a released frame goes back to the producer at once. */
    EGLint attrs[] = {GX_EGL_STREAM_FIFO_LENGTH_KHR, 4, GX_EGL_NONE};
    EGLStreamKHR stream = g.CreateStreamKHR(g.dpy, attrs);
    if (!stream) {
        printf("eglCreateStreamKHR failed\n");
        return;
    }
    cudaEglStreamConnection cons = NULL, prod = NULL;
    cudaError_t rc = SHOW("cudaEGLStreamConsumerConnect", cudaEGLStreamConsumerConnect(&cons, stream));
    cudaError_t rp = SHOW("cudaEGLStreamProducerConnect", cudaEGLStreamProducerConnect(&prod, stream, W, H));
    if (rc != cudaSuccess || rp != cudaSuccess) {
        SHOW_LAST("connect");
        if (rp == cudaSuccess) SHOW("cudaEGLStreamProducerDisconnect", cudaEGLStreamProducerDisconnect(&prod));
        if (rc == cudaSuccess) SHOW("cudaEGLStreamConsumerDisconnect", cudaEGLStreamConsumerDisconnect(&cons));
        g.DestroyStreamKHR(g.dpy, stream);
        return;
    }

    cudaEglFrame f;
    memset(&f, 0, sizeof f);
    void *dev[3] = {NULL, NULL, NULL};
    cudaArray_t arr = NULL;
    unsigned char host[W * H * 4], back[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) host[i] = (unsigned char)(i * 5 + kind);
    size_t pitch = 0;
    if (kind == 0) {
        OK(cudaMallocPitch(&dev[0], &pitch, W * 4, H));
        OK(cudaMemcpy2D(dev[0], pitch, host, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        f.frameType = cudaEglFrameTypePitch;
        f.eglColorFormat = cudaEglColorFormatARGB;
        f.planeCount = 1;
        plane(&f, 0, W, H, (unsigned)pitch, 4, rgba8());
        f.frame.pPitch[0] = make_cudaPitchedPtr(dev[0], pitch, W, H);
    } else if (kind == 1) {
        struct cudaChannelFormatDesc d = rgba8();
        OK(cudaMallocArray(&arr, &d, W, H, 0));
        OK(cudaMemcpy2DToArray(arr, 0, 0, host, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        f.frameType = cudaEglFrameTypeArray;
        f.eglColorFormat = cudaEglColorFormatARGB;
        f.planeCount = 1;
        plane(&f, 0, W, H, 0, 4, d);
        f.frame.pArray[0] = arr;
    } else {
        struct cudaChannelFormatDesc y8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
        size_t pitches[3];
        unsigned ws[3] = {W, W / 2, W / 2}, hs[3] = {H, H / 2, H / 2};
        for (int i = 0; i < 3; i++) {
            OK(cudaMallocPitch(&dev[i], &pitches[i], ws[i], hs[i]));
            OK(cudaMemcpy2D(dev[i], pitches[i], host, ws[i], ws[i], hs[i], cudaMemcpyHostToDevice));
            plane(&f, i, ws[i], hs[i], (unsigned)pitches[i], 1, y8);
            f.frame.pPitch[i] = make_cudaPitchedPtr(dev[i], pitches[i], ws[i], hs[i]);
        }
        pitch = pitches[0];
        f.frameType = cudaEglFrameTypePitch;
        f.eglColorFormat = cudaEglColorFormatYUV420Planar;
        f.planeCount = 3;
    }
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));

    cudaError_t r = SHOW("cudaEGLStreamProducerPresentFrame", cudaEGLStreamProducerPresentFrame(&prod, f, &s));
    SHOW_LAST("cudaEGLStreamProducerPresentFrame");
    cudaGraphicsResource_t res = NULL;
    cudaStream_t cs = NULL;
    OK(cudaStreamCreate(&cs));
    if (r == cudaSuccess) {
        r = SHOW("cudaEGLStreamConsumerAcquireFrame", cudaEGLStreamConsumerAcquireFrame(&cons, &res, &cs, TIMEOUT_US));
        SHOW_LAST("cudaEGLStreamConsumerAcquireFrame");
    }
    if (r == cudaSuccess && res) {
        cudaEglFrame got;
        memset(&got, 0x7f, sizeof got);
        r = SHOW("cudaGraphicsResourceGetMappedEglFrame", cudaGraphicsResourceGetMappedEglFrame(&got, res, 0, 0));
        if (r == cudaSuccess) {
            print_frame("acquired", &got);
            memset(back, 0, sizeof back);
            int same = 0;
            if (kind == 1 && got.frameType == cudaEglFrameTypeArray && got.frame.pArray[0]) {
                OK(cudaMemcpy2DFromArray(back, W * 4, got.frame.pArray[0], 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
                same = memcmp(back, host, W * H * 4) == 0;
            } else if (got.frameType == cudaEglFrameTypePitch && got.frame.pPitch[0].ptr) {
                size_t row = kind == 0 ? W * 4 : W;
                OK(cudaMemcpy2D(back, row, got.frame.pPitch[0].ptr, got.frame.pPitch[0].pitch, row, H, cudaMemcpyDeviceToHost));
                same = memcmp(back, host, row * H) == 0;
            }
            printf("consumer reads the frame: %d\n", same);
            CHECK(same);
        } else {
            SHOW_LAST("cudaGraphicsResourceGetMappedEglFrame");
        }
        cudaEglFrame other;
        SHOW("GetMappedEglFrame(index 1)", cudaGraphicsResourceGetMappedEglFrame(&other, res, 1, 0));
        SHOW_LAST("GetMappedEglFrame(index 1)");
        SHOW("GetMappedEglFrame(level 1)", cudaGraphicsResourceGetMappedEglFrame(&other, res, 0, 1));
        SHOW_LAST("GetMappedEglFrame(level 1)");
        OK(SHOW("cudaEGLStreamConsumerReleaseFrame", cudaEGLStreamConsumerReleaseFrame(&cons, res, &cs)));
        OK(cudaStreamSynchronize(cs));

        /* The release reaches the producer asynchronously: until then, ReturnFrame times out
         * (retried for up to 5 s; only the outcome is printed). */
        cudaEglFrame ret;
        memset(&ret, 0x7f, sizeof ret);
        for (int tries = 0; tries < 500; tries++) {
            r = cudaEGLStreamProducerReturnFrame(&prod, &ret, &s);
            if (r != cudaErrorLaunchTimeout) break;
            cudaGetLastError();
            usleep(10000);
        }
        SHOW("cudaEGLStreamProducerReturnFrame", r);
        SHOW_LAST("cudaEGLStreamProducerReturnFrame");
        if (r == cudaSuccess) {
            print_frame("returned", &ret);
            int same = kind == 1 ? ret.frame.pArray[0] == arr : ret.frame.pPitch[0].ptr == dev[0];
            printf("returned frame is the presented one: %d\n", same);
        }
        /* Nothing more to acquire or return. */
        SHOW("AcquireFrame(nothing presented, timeout 0)", cudaEGLStreamConsumerAcquireFrame(&cons, &res, &cs, 0));
        SHOW_LAST("AcquireFrame(nothing presented, timeout 0)");
        SHOW("ReturnFrame(nothing released)", cudaEGLStreamProducerReturnFrame(&prod, &ret, &s));
        SHOW_LAST("ReturnFrame(nothing released)");
    }
    OK(cudaStreamSynchronize(s));
    OK(cudaStreamSynchronize(cs));
    OK(SHOW("cudaEGLStreamProducerDisconnect", cudaEGLStreamProducerDisconnect(&prod)));
    OK(SHOW("cudaEGLStreamConsumerDisconnect", cudaEGLStreamConsumerDisconnect(&cons)));
    ct_destroy_streams(s, cs, NULL);
    for (int i = 0; i < 3; i++)
        if (dev[i]) OK(cudaFree(dev[i]));
    if (arr) OK(cudaFreeArray(arr));
    g.DestroyStreamKHR(g.dpy, stream);
    (void)pitch;
}

/* Frames the runtime refuses before the driver sees them, and connection errors. */
static void stream_errors(void) {
    printf("-- stream errors\n");
    EGLint attrs[] = {GX_EGL_NONE};
    EGLStreamKHR stream = g.CreateStreamKHR(g.dpy, attrs);
    if (!stream) {
        printf("eglCreateStreamKHR failed\n");
        return;
    }
    cudaEglStreamConnection cons = NULL, prod = NULL;
    SHOW("ConsumerConnectWithFlags(7)", cudaEGLStreamConsumerConnectWithFlags(&cons, stream, 7));
    SHOW_LAST("ConsumerConnectWithFlags(7)");
    if (cons) SHOW("ConsumerDisconnect", cudaEGLStreamConsumerDisconnect(&cons));
    cons = NULL;
    OK(SHOW("ConsumerConnectWithFlags(Vidmem)", cudaEGLStreamConsumerConnectWithFlags(&cons, stream, cudaEglResourceLocationVidmem)));
    cudaEglStreamConnection cons2 = NULL;
    SHOW("a second consumer", cudaEGLStreamConsumerConnect(&cons2, stream));
    SHOW_LAST("a second consumer");
    /* Not a disconnect of the second: NVIDIA's runtime crashes on it (the driver wrote a
     * connection it failed to make). */
    SHOW("ProducerConnect(0 x 0)", cudaEGLStreamProducerConnect(&prod, stream, 0, 0));
    SHOW_LAST("ProducerConnect(0 x 0)");
    if (prod) SHOW("ProducerDisconnect", cudaEGLStreamProducerDisconnect(&prod));
    prod = NULL;
    cudaError_t rp = SHOW("ProducerConnect", cudaEGLStreamProducerConnect(&prod, stream, W, H));

    void *dev = NULL;
    size_t pitch = 0;
    OK(cudaMallocPitch(&dev, &pitch, W * 4, H));
    cudaEglFrame f;
    memset(&f, 0, sizeof f);
    f.frameType = cudaEglFrameTypePitch;
    f.eglColorFormat = cudaEglColorFormatARGB;
    f.planeCount = 1;
    plane(&f, 0, W, H, (unsigned)pitch, 4, rgba8());
    f.frame.pPitch[0] = make_cudaPitchedPtr(dev, pitch, W, H);
    if (rp == cudaSuccess) {
        cudaEglFrame bad = f;
        bad.eglColorFormat = (cudaEglColorFormat)4; /* the driver's RGB: no runtime name */
        SHOW("PresentFrame(color format 4)", cudaEGLStreamProducerPresentFrame(&prod, bad, NULL));
        SHOW_LAST("PresentFrame(color format 4)");
        bad = f;
        bad.eglColorFormat = (cudaEglColorFormat)117;
        SHOW("PresentFrame(color format 117)", cudaEGLStreamProducerPresentFrame(&prod, bad, NULL));
        SHOW_LAST("PresentFrame(color format 117)");
        bad = f;
        bad.frameType = (cudaEglFrameType)2;
        SHOW("PresentFrame(frame type 2)", cudaEGLStreamProducerPresentFrame(&prod, bad, NULL));
        SHOW_LAST("PresentFrame(frame type 2)");
        bad = f;
        bad.planeDesc[0].channelDesc = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
        SHOW("PresentFrame(3-channel desc)", cudaEGLStreamProducerPresentFrame(&prod, bad, NULL));
        SHOW_LAST("PresentFrame(3-channel desc)");
        bad = f;
        memset(&bad.planeDesc[0].channelDesc, 0, sizeof bad.planeDesc[0].channelDesc);
        SHOW("PresentFrame(zero desc)", cudaEGLStreamProducerPresentFrame(&prod, bad, NULL));
        SHOW_LAST("PresentFrame(zero desc)");
        bad = f;
        bad.planeDesc[0].width = W * 2;
        SHOW("PresentFrame(wider than the stream)", cudaEGLStreamProducerPresentFrame(&prod, bad, NULL));
        SHOW_LAST("PresentFrame(wider than the stream)");
        bad = f;
        bad.planeCount = 0;
        SHOW("PresentFrame(0 planes)", cudaEGLStreamProducerPresentFrame(&prod, bad, NULL));
        SHOW_LAST("PresentFrame(0 planes)");
        cudaEglFrame ret;
        SHOW("ReturnFrame(NULL frame)", cudaEGLStreamProducerReturnFrame(&prod, NULL, NULL));
        SHOW_LAST("ReturnFrame(NULL frame)");
        (void)ret;
        SHOW("ProducerDisconnect", cudaEGLStreamProducerDisconnect(&prod));
    }
    SHOW("ConsumerDisconnect", cudaEGLStreamConsumerDisconnect(&cons));
    OK(cudaFree(dev));
    g.DestroyStreamKHR(g.dpy, stream);
}

/* An EGL image of a GL texture, registered and mapped as an EGL frame. */
static void egl_image(void) {
    printf("-- EGL image\n");
    if (!g.have_context || !g.CreateImageKHR || !gx_has_ext(&g, "EGL_KHR_gl_texture_2D_image")) {
        printf("EGL image of a GL texture: unavailable\n");
        return;
    }
    GLuint tex = gx_rgba8_texture(&g, W, H);
    g.Finish();
    EGLImageKHR img = g.CreateImageKHR(g.dpy, g.ctx, GX_EGL_GL_TEXTURE_2D_KHR, (void *)(uintptr_t)tex, NULL);
    printf("eglCreateImageKHR: %s\n", img ? "ok" : "failed");
    if (img) {
        cudaGraphicsResource_t res = NULL;
        cudaError_t r = SHOW("cudaGraphicsEGLRegisterImage", cudaGraphicsEGLRegisterImage(&res, img, cudaGraphicsRegisterFlagsNone));
        SHOW_LAST("cudaGraphicsEGLRegisterImage");
        if (r == cudaSuccess && res) {
            cudaEglFrame f;
            memset(&f, 0x7f, sizeof f);
            r = SHOW("GetMappedEglFrame(image)", cudaGraphicsResourceGetMappedEglFrame(&f, res, 0, 0));
            SHOW_LAST("GetMappedEglFrame(image)");
            if (r == cudaSuccess) {
                print_frame("image", &f);
                if (f.frameType == cudaEglFrameTypeArray && f.frame.pArray[0]) {
                    unsigned char host[W * H * 4], back[W * H * 4];
                    for (int i = 0; i < W * H * 4; i++) host[i] = (unsigned char)(i * 3 + 11);
                    OK(SHOW("cudaMemcpy2DToArray into the image",
                            cudaMemcpy2DToArray(f.frame.pArray[0], 0, 0, host, W * 4, W * 4, H, cudaMemcpyHostToDevice)));
                    OK(cudaDeviceSynchronize());
                    memset(back, 0, sizeof back);
                    g.PixelStorei(GX_GL_PACK_ALIGNMENT, 1);
                    g.GetTexImage(GX_GL_TEXTURE_2D, 0, GX_GL_RGBA, GX_GL_UNSIGNED_BYTE, back);
                    int same = memcmp(back, host, sizeof back) == 0;
                    /* (Printed, not checked: without a GL-side synchronisation GL may
                     * read what it had, and does on the H100 under NVIDIA's runtime too.) */
                    printf("GL reads what CUDA wrote into the image: %d\n", same);
                }
            }
            OK(SHOW("cudaGraphicsUnregisterResource(image)", cudaGraphicsUnregisterResource(res)));
        }
        g.DestroyImageKHR(g.dpy, img);
    }
    cudaGraphicsResource_t res = NULL;
    SHOW("cudaGraphicsEGLRegisterImage(no image)", cudaGraphicsEGLRegisterImage(&res, NULL, 0));
    SHOW_LAST("cudaGraphicsEGLRegisterImage(no image)");
    if (res) OK(cudaGraphicsUnregisterResource(res));
    g.DeleteTextures(1, &tex);
}

/* cudaEventCreateFromEGLSync on a fence sync of the GL context. */
static void egl_sync(void) {
    printf("-- EGL sync\n");
    cudaEvent_t ev = NULL;
    SHOW("cudaEventCreateFromEGLSync(no sync)", cudaEventCreateFromEGLSync(&ev, NULL, 0));
    SHOW_LAST("cudaEventCreateFromEGLSync(no sync)");
    if (ev) OK(cudaEventDestroy(ev));
    ev = NULL;
    if (!g.have_context || !g.CreateSyncKHR || !gx_has_ext(&g, "EGL_KHR_fence_sync")) {
        printf("EGL fence sync: unavailable\n");
        return;
    }
    EGLSyncKHR sync = g.CreateSyncKHR(g.dpy, GX_EGL_SYNC_FENCE_KHR, NULL);
    printf("eglCreateSyncKHR(fence): %s\n", sync ? "ok" : "failed");
    if (!sync) return;
    g.Finish();
    cudaError_t r = SHOW("cudaEventCreateFromEGLSync", cudaEventCreateFromEGLSync(&ev, sync, 0));
    SHOW_LAST("cudaEventCreateFromEGLSync");
    if (r == cudaSuccess && ev) {
        OK(SHOW("cudaStreamWaitEvent(EGL sync event)", cudaStreamWaitEvent(0, ev, 0)));
        OK(SHOW("cudaEventSynchronize(EGL sync event)", cudaEventSynchronize(ev)));
        SHOW("cudaEventQuery(EGL sync event)", cudaEventQuery(ev));
        SHOW("cudaEventRecord(EGL sync event)", cudaEventRecord(ev, 0));
        SHOW_LAST("cudaEventRecord(EGL sync event)");
        cudaEvent_t plain = NULL;
        float ms = 0;
        OK(cudaEventCreate(&plain));
        OK(cudaEventRecord(plain, 0));
        OK(cudaEventSynchronize(plain));
        SHOW("cudaEventElapsedTime(EGL sync event)", cudaEventElapsedTime(&ms, ev, plain));
        SHOW_LAST("cudaEventElapsedTime(EGL sync event)");
        OK(cudaEventDestroy(plain));
        OK(SHOW("cudaEventDestroy(EGL sync event)", cudaEventDestroy(ev)));
    }
    cudaEvent_t ev2 = NULL;
    SHOW("cudaEventCreateFromEGLSync(BlockingSync)", cudaEventCreateFromEGLSync(&ev2, sync, cudaEventBlockingSync));
    SHOW_LAST("cudaEventCreateFromEGLSync(BlockingSync)");
    if (ev2) OK(cudaEventDestroy(ev2));
    ev2 = NULL;
    SHOW("cudaEventCreateFromEGLSync(flags 0x100)", cudaEventCreateFromEGLSync(&ev2, sync, 0x100));
    SHOW_LAST("cudaEventCreateFromEGLSync(flags 0x100)");
    if (ev2) OK(cudaEventDestroy(ev2));
    g.DestroySyncKHR(g.dpy, sync);
}

int main(void) {
    OK(SHOW("cudaFree(NULL)", cudaFree(NULL)));
    int display = gfx_open(&g, 1);
    if (display && g.CreateStreamKHR && g.DestroyStreamKHR && gx_has_ext(&g, "EGL_KHR_stream")) {
        printf("EGL streams: available\n");
        stream_round(0);
        stream_round(1);
        stream_round(2);
        stream_errors();
    } else {
        printf("EGL streams: unavailable\n");
    }
    if (display) {
        egl_image();
        egl_sync();
    } else {
        egl_sync();
    }
    /* Without a stream, a connection, an image. */
    printf("-- without EGL objects\n");
    cudaEglStreamConnection c = NULL;
    SHOW("ConsumerConnect(no stream)", cudaEGLStreamConsumerConnect(&c, NULL));
    SHOW_LAST("ConsumerConnect(no stream)");
    SHOW("ConsumerConnectWithFlags(no stream)", cudaEGLStreamConsumerConnectWithFlags(&c, NULL, 0));
    SHOW_LAST("ConsumerConnectWithFlags(no stream)");
    SHOW("ProducerConnect(no stream)", cudaEGLStreamProducerConnect(&c, NULL, W, H));
    SHOW_LAST("ProducerConnect(no stream)");
    cudaGraphicsResource_t res = NULL;
    SHOW("cudaGraphicsEGLRegisterImage(no image)", cudaGraphicsEGLRegisterImage(&res, NULL, 0));
    SHOW_LAST("cudaGraphicsEGLRegisterImage(no image)");
    cudaEglFrame f;
    SHOW("GetMappedEglFrame(no resource)", cudaGraphicsResourceGetMappedEglFrame(&f, NULL, 0, 0));
    SHOW_LAST("GetMappedEglFrame(no resource)");
    if (display) gfx_close(&g);

    /* Null connections and out pointers last: NVIDIA's runtime hands them to the driver. */
    cudaStream_t s = NULL;
    cudaEglStreamConnection none = NULL;
    SHOW("ConsumerDisconnect(null connection)", cudaEGLStreamConsumerDisconnect(&none));
    SHOW_LAST("ConsumerDisconnect(null connection)");
    SHOW("ProducerDisconnect(null connection)", cudaEGLStreamProducerDisconnect(&none));
    SHOW_LAST("ProducerDisconnect(null connection)");
    SHOW("AcquireFrame(null connection)", cudaEGLStreamConsumerAcquireFrame(&none, &res, &s, 0));
    SHOW_LAST("AcquireFrame(null connection)");
    SHOW("ReleaseFrame(null connection)", cudaEGLStreamConsumerReleaseFrame(&none, NULL, &s));
    SHOW_LAST("ReleaseFrame(null connection)");
    memset(&f, 0, sizeof f);
    f.frameType = cudaEglFrameTypePitch;
    f.eglColorFormat = cudaEglColorFormatARGB;
    f.planeCount = 1;
    f.planeDesc[0].channelDesc = rgba8();
    SHOW("PresentFrame(null connection)", cudaEGLStreamProducerPresentFrame(&none, f, &s));
    SHOW_LAST("PresentFrame(null connection)");
    SHOW("ReturnFrame(null connection)", cudaEGLStreamProducerReturnFrame(&none, &f, &s));
    SHOW_LAST("ReturnFrame(null connection)");
    SHOW("GetMappedEglFrame(NULL frame)", cudaGraphicsResourceGetMappedEglFrame(NULL, NULL, 0, 0));
    SHOW_LAST("GetMappedEglFrame(NULL frame)");
    SHOW("cudaEventCreateFromEGLSync(NULL event)", cudaEventCreateFromEGLSync(NULL, NULL, 0));
    SHOW_LAST("cudaEventCreateFromEGLSync(NULL event)");
    SHOW("ConsumerConnect(NULL connection)", cudaEGLStreamConsumerConnect(NULL, NULL));
    SHOW_LAST("ConsumerConnect(NULL connection)");
    DONE();
}
