/* What the driver refuses, as a table: host registration of device memory, of ranges that are
 * not (all) host memory and of absurd sizes, and what follows such a registration; copies and
 * memsets whose offsets or extents leave their allocation, with cudaMemcpyDefault and with
 * explicit kinds; pitched allocations no device can make. Each case runs in order in a child process (cases.h): one that kills its
 * process is printed as such and the next runs in a new one. Only results are printed (the
 * driver's answers are what the test records), never addresses. */
#include <stdint.h>
#include "cases.h"

#define MB (1u << 20)
#define PAGE 4096

/* One device allocation of 1 MiB per process, made on first use. */
static char *dev_mem(void) {
    static char *d;
    if (!d && cudaMalloc((void **)&d, MB) != cudaSuccess) d = NULL;
    return d;
}

/* Registers, prints the result, and unregisters what was registered. */
static cudaError_t reg(const char *label, void *p, size_t n, unsigned flags) {
    cudaError_t r = CT_R(label, cudaHostRegister(p, n, flags));
    if (r == cudaSuccess) CT_R("cudaHostUnregister", cudaHostUnregister(p));
    return r;
}

/* ---- registration ---- */

static void reg_device_base(void) { reg("cudaHostRegister(dev, 4096)", dev_mem(), PAGE, 0); }
static void reg_device_inside(void) { reg("cudaHostRegister(dev + 4096, 8192)", dev_mem() + PAGE, 2 * PAGE, 0); }
static void reg_device_tail(void) { reg("cudaHostRegister(dev + 1 MiB - 4096, 8192)", dev_mem() + MB - PAGE, 2 * PAGE, 0); }
static void reg_device_past(void) { reg("cudaHostRegister(dev + 1 MiB, 4096)", dev_mem() + MB, PAGE, 0); }

static void reg_pinned(void) {
    void *h = NULL;
    if (cudaMallocHost(&h, 2 * PAGE) != cudaSuccess) return (void)printf("  cudaMallocHost failed\n");
    reg("cudaHostRegister(pinned, 8192)", h, 2 * PAGE, 0);
    reg("cudaHostRegister(pinned + 4096, 4096)", (char *)h + PAGE, PAGE, 0);
    CT_R("cudaFreeHost", cudaFreeHost(h));
}

static void reg_managed(void) {
    void *m = NULL;
    if (cudaMallocManaged(&m, 2 * PAGE, cudaMemAttachGlobal) != cudaSuccess) return (void)printf("  cudaMallocManaged failed\n");
    reg("cudaHostRegister(managed, 8192)", m, 2 * PAGE, 0);
    CT_R("cudaFree", cudaFree(m));
}

/* 2^64 - 10^15 bytes from a host page, then memsets there (inside the page and 1 MiB on,
 * where nothing is mapped), then the unregistration if it was registered. */
static void reg_absurd(void) {
    char *h = ct_pages(PAGE, PROT_READ | PROT_WRITE);
    const size_t n = (size_t)0 - (size_t)1000000000000000ull;
    cudaError_t r = CT_R("cudaHostRegister(host, 2^64 - 10^15)", cudaHostRegister(h, n, 0));
    CT_R("cudaMemset(host, 0, 64)", cudaMemset(h, 0, 64));
    CT_R("cudaMemset(host + 1 MiB, 0, 64)", cudaMemset(h + MB, 0, 64));
    if (r == cudaSuccess) CT_R("cudaHostUnregister", cudaHostUnregister(h));
    munmap(h, PAGE);
}

static void reg_size_max(void) {
    char *h = ct_pages(PAGE, PROT_READ | PROT_WRITE);
    reg("cudaHostRegister(host, SIZE_MAX)", h, SIZE_MAX, 0);
    reg("cudaHostRegister(host, 2^47)", h, (size_t)1 << 47, 0);
    munmap(h, PAGE);
}

static void reg_past_mapping(void) {
    char *h = ct_pages(2 * PAGE, PROT_READ | PROT_WRITE);
    munmap(h + PAGE, PAGE);
    cudaError_t r = CT_R("cudaHostRegister(mapped page + unmapped page)", cudaHostRegister(h, 2 * PAGE, 0));
    CT_R("cudaMemset(host, 0, 64)", cudaMemset(h, 0, 64));
    CT_R("cudaMemset(host + 4096, 0, 64)", cudaMemset(h + PAGE, 0, 64));
    if (r == cudaSuccess) CT_R("cudaHostUnregister", cudaHostUnregister(h));
    munmap(h, PAGE);
}

static void reg_unmapped(void) {
    reg("cudaHostRegister(0x1000, 4096)", (void *)(uintptr_t)0x1000, PAGE, 0);
    reg("cudaHostRegister(0x10, 16)", (void *)(uintptr_t)0x10, 16, 0);
}

static void reg_prot_none(void) {
    char *h = ct_pages(PAGE, PROT_NONE);
    reg("cudaHostRegister(PROT_NONE page)", h, PAGE, 0);
    reg("cudaHostRegister(PROT_NONE page, ReadOnly)", h, PAGE, cudaHostRegisterReadOnly);
    munmap(h, PAGE);
}

static void reg_read_only(void) {
    char *h = ct_pages(PAGE, PROT_READ);
    reg("cudaHostRegister(PROT_READ page)", h, PAGE, 0);
    reg("cudaHostRegister(PROT_READ page, ReadOnly)", h, PAGE, cudaHostRegisterReadOnly);
    munmap(h, PAGE);
}

static void reg_io_memory(void) {
    char *h = ct_pages(PAGE, PROT_READ | PROT_WRITE);
    reg("cudaHostRegister(host page, IoMemory)", h, PAGE, cudaHostRegisterIoMemory);
    reg("cudaHostRegister(host page, flags 16)", h, PAGE, 16);
    munmap(h, PAGE);
}

static void reg_overlap(void) {
    char *h = ct_pages(4 * PAGE, PROT_READ | PROT_WRITE);
    if (CT_R("cudaHostRegister(host + 4096, 8192)", cudaHostRegister(h + PAGE, 2 * PAGE, 0)) == cudaSuccess) {
        reg("the same again", h + PAGE, 2 * PAGE, 0);
        reg("cudaHostRegister(host, 8192): overlaps its first page", h, 2 * PAGE, 0);
        reg("cudaHostRegister(host + 8192, 8192): overlaps its last page", h + 2 * PAGE, 2 * PAGE, 0);
        reg("cudaHostRegister(host, 4096): the page before", h, PAGE, 0);
        reg("cudaHostRegister(host + 12288, 4096): the page after", h + 3 * PAGE, PAGE, 0);
        CT_R("cudaHostUnregister(host + 8192)", cudaHostUnregister(h + 2 * PAGE));
        CT_R("cudaHostUnregister(host + 4096)", cudaHostUnregister(h + PAGE));
    }
    munmap(h, 4 * PAGE);
}

/* Byte ranges that share a page: the driver pins whole pages. */
static void reg_same_page(void) {
    char *h = ct_pages(2 * PAGE, PROT_READ | PROT_WRITE);
    if (CT_R("cudaHostRegister(host + 16, 100)", cudaHostRegister(h + 16, 100, 0)) == cudaSuccess) {
        reg("cudaHostRegister(host + 1024, 100): the same page", h + 1024, 100, 0);
        reg("cudaHostRegister(host + 4096, 100): the next page", h + PAGE, 100, 0);
        CT_R("cudaMemset(host + 16, 0, 100)", cudaMemset(h + 16, 0, 100));
        CT_R("cudaMemset(host + 116, 0, 100): past the registered bytes", cudaMemset(h + 116, 0, 100));
        CT_R("cudaMemset(host + 4096, 0, 16): the next page", cudaMemset(h + PAGE, 0, 16));
        CT_R("cudaHostUnregister(host + 16)", cudaHostUnregister(h + 16));
    }
    munmap(h, 2 * PAGE);
}

static void reg_null(void) {
    reg("cudaHostRegister(NULL, 4096)", NULL, PAGE, 0);
    char *h = ct_pages(PAGE, PROT_READ | PROT_WRITE);
    reg("cudaHostRegister(host, 0)", h, 0, 0);
    munmap(h, PAGE);
}

/* Memsets of registered memory: inside, across its end, 2D rows past it. */
static void memset_registered(void) {
    char *h = ct_pages(4 * PAGE, PROT_READ | PROT_WRITE);
    if (CT_R("cudaHostRegister(host, 8192)", cudaHostRegister(h, 2 * PAGE, 0)) == cudaSuccess) {
        CT_R("cudaMemset(host, 7, 8192)", cudaMemset(h, 7, 2 * PAGE));
        printf("  byte 8191 = %d, byte 8192 = %d\n", h[2 * PAGE - 1], h[2 * PAGE]);
        CT_R("cudaMemset(host + 8000, 0, 1000): past its end", cudaMemset(h + 8000, 0, 1000));
        CT_R("cudaMemset2D(host, 4096, 0, 64, 3): a row past its end", cudaMemset2D(h, PAGE, 0, 64, 3));
        CT_R("cudaMemset2D(host, 4096, 0, 64, 2)", cudaMemset2D(h, PAGE, 0, 64, 2));
        CT_R("cudaHostUnregister(host)", cudaHostUnregister(h));
    }
    CT_R("cudaMemset(unregistered host, 0, 64)", cudaMemset(h, 0, 64));
    munmap(h, 4 * PAGE);
}

/* ---- copies and memsets that leave their allocation ---- */

static struct cudaMemcpy3DParms p3d(struct cudaPitchedPtr src, struct cudaPos sp, struct cudaPitchedPtr dst, struct cudaPos dp,
                                    struct cudaExtent e, enum cudaMemcpyKind kind) {
    return (struct cudaMemcpy3DParms){.srcPtr = src, .srcPos = sp, .dstPtr = dst, .dstPos = dp, .extent = e, .kind = kind};
}

/* A 3D copy of 64 bytes x 2 rows x 1 slice between the device allocation (pitch 512, 4 rows
 * a slice: 2 KiB slices, 512 of them) and a host buffer, at slice z of the device side. */
static cudaError_t copy3d_dev(int to_dev, size_t z, size_t y, enum cudaMemcpyKind kind) {
    static char host[2 * PAGE];
    struct cudaPitchedPtr d = make_cudaPitchedPtr(dev_mem(), 512, 512, 4);
    struct cudaPitchedPtr h = make_cudaPitchedPtr(host, 512, 512, 4);
    struct cudaExtent e = make_cudaExtent(64, 2, 1);
    struct cudaMemcpy3DParms p = to_dev ? p3d(h, make_cudaPos(0, 0, 0), d, make_cudaPos(0, y, z), e, kind)
                                        : p3d(d, make_cudaPos(0, y, z), h, make_cudaPos(0, 0, 0), e, kind);
    return cudaMemcpy3D(&p);
}

static void copy3d_src_z(void) {
    CT_R("Default, srcPos.z 511 (the last slice)", copy3d_dev(0, 511, 0, cudaMemcpyDefault));
    CT_R("Default, srcPos.z 512 (the allocation's end)", copy3d_dev(0, 512, 0, cudaMemcpyDefault));
    CT_R("Default, srcPos.z 2^20", copy3d_dev(0, (size_t)1 << 20, 0, cudaMemcpyDefault));
    CT_R("Default, srcPos.z 2^32", copy3d_dev(0, (size_t)1 << 32, 0, cudaMemcpyDefault));
    CT_R("DeviceToHost, srcPos.z 512", copy3d_dev(0, 512, 0, cudaMemcpyDeviceToHost));
    CT_R("DeviceToHost, srcPos.z 2^32", copy3d_dev(0, (size_t)1 << 32, 0, cudaMemcpyDeviceToHost));
}

static void copy3d_dst_z(void) {
    CT_R("Default, dstPos.z 512", copy3d_dev(1, 512, 0, cudaMemcpyDefault));
    CT_R("Default, dstPos.z 2^32", copy3d_dev(1, (size_t)1 << 32, 0, cudaMemcpyDefault));
    CT_R("HostToDevice, dstPos.z 2^32", copy3d_dev(1, (size_t)1 << 32, 0, cudaMemcpyHostToDevice));
}

static void copy3d_y(void) {
    CT_R("Default, srcPos.y 3 (rows past ysize)", copy3d_dev(0, 0, 3, cudaMemcpyDefault));
    CT_R("Default, srcPos.y 2^40", copy3d_dev(0, 0, (size_t)1 << 40, cudaMemcpyDefault));
    CT_R("Default, dstPos.y 2^40", copy3d_dev(1, 0, (size_t)1 << 40, cudaMemcpyDefault));
}

/* Offsets whose product wraps: z * ysize * pitch = 2^64 (the start wraps to the base). */
static void copy3d_wrap(void) {
    CT_R("Default, srcPos.z 2^53", copy3d_dev(0, (size_t)1 << 53, 0, cudaMemcpyDefault));
    CT_R("DeviceToHost, srcPos.z 2^53", copy3d_dev(0, (size_t)1 << 53, 0, cudaMemcpyDeviceToHost));
}

static void copy3d_depth(void) {
    static char host[513 * 64];
    struct cudaPitchedPtr d = make_cudaPitchedPtr(dev_mem(), 512, 512, 4);
    struct cudaMemcpy3DParms p = p3d(d, make_cudaPos(0, 0, 0), d, make_cudaPos(0, 0, 1), make_cudaExtent(64, 4, 512), cudaMemcpyDeviceToDevice);
    CT_R("DeviceToDevice, 512 slices from slice 1", cudaMemcpy3D(&p));
    p.kind = cudaMemcpyDefault;
    CT_R("Default, 512 slices from slice 1", cudaMemcpy3D(&p));
    p = p3d(d, make_cudaPos(0, 0, 0), make_cudaPitchedPtr(host, 64, 64, 1), make_cudaPos(0, 0, 0), make_cudaExtent(64, 1, 513), cudaMemcpyDefault);
    CT_R("Default to host, 513 slices", cudaMemcpy3D(&p));
}

static void copy2d_rows(void) {
    static char host[2 * PAGE];
    char *d = dev_mem();
    CT_R("cudaMemcpy2D Default, 2049 rows of pitch 512 from dev", cudaMemcpy2D(host, 1, d, 512, 1, 2049, cudaMemcpyDefault));
    CT_R("cudaMemcpy2D DeviceToHost, 2049 rows of pitch 512 from dev", cudaMemcpy2D(host, 1, d, 512, 1, 2049, cudaMemcpyDeviceToHost));
    CT_R("cudaMemcpy2D Default, 2 rows of pitch 2^40 from dev", cudaMemcpy2D(host, 1, d, (size_t)1 << 40, 1, 2, cudaMemcpyDefault));
    CT_R("cudaMemcpy2D Default, 2048 rows of pitch 512 from dev", cudaMemcpy2D(host, 1, d, 512, 1, 2048, cudaMemcpyDefault));
}

static void copy1d_past(void) {
    static char host[2 * PAGE];
    char *d = dev_mem();
    CT_R("cudaMemcpy Default, 8192 bytes from dev + 1 MiB - 4096", cudaMemcpy(host, d + MB - PAGE, 2 * PAGE, cudaMemcpyDefault));
    CT_R("cudaMemcpy DeviceToHost, 8192 bytes from dev + 1 MiB - 4096", cudaMemcpy(host, d + MB - PAGE, 2 * PAGE, cudaMemcpyDeviceToHost));
    CT_R("cudaMemcpy HostToDevice, 8192 bytes to dev + 1 MiB - 4096", cudaMemcpy(d + MB - PAGE, host, 2 * PAGE, cudaMemcpyHostToDevice));
    CT_R("cudaMemcpy DeviceToDevice, 1 MiB from dev to dev + 16", cudaMemcpy(d + 16, d, MB, cudaMemcpyDeviceToDevice));
}

static void copy_array(void) {
    static char host[PAGE];
    cudaArray_t a = NULL;
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    if (cudaMalloc3DArray(&a, &f, make_cudaExtent(64, 4, 4), 0) != cudaSuccess) return (void)printf("  cudaMalloc3DArray failed\n");
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(host, 64, 64, 4);
    p.dstArray = a;
    p.dstPos = make_cudaPos(0, 0, 4);
    p.extent = make_cudaExtent(64, 4, 1);
    p.kind = cudaMemcpyHostToDevice;
    CT_R("to an array, dstPos.z 4 (its depth)", cudaMemcpy3D(&p));
    p.dstPos = make_cudaPos(0, 0, (size_t)1 << 40);
    CT_R("to an array, dstPos.z 2^40", cudaMemcpy3D(&p));
    p.dstPos = make_cudaPos(0, 1, 0);
    CT_R("to an array, dstPos.y 1, 4 rows", cudaMemcpy3D(&p));
    CT_R("cudaFreeArray", cudaFreeArray(a));
}

static void memset_past(void) {
    char *d = dev_mem();
    CT_R("cudaMemset(dev + 1 MiB - 16, 0, 32)", cudaMemset(d + MB - 16, 0, 32));
    CT_R("cudaMemset2D(dev, 512, 0, 64, 2049)", cudaMemset2D(d, 512, 0, 64, 2049));
    CT_R("cudaMemset3D 513 slices of 2 KiB", cudaMemset3D(make_cudaPitchedPtr(d, 512, 512, 4), 0, make_cudaExtent(64, 4, 513)));
    CT_R("cudaMemset3D 1 slice at dev + 1 MiB", cudaMemset3D(make_cudaPitchedPtr(d + MB, 512, 512, 4), 0, make_cudaExtent(64, 4, 1)));
}

/* Widths no device can allocate: the allocation fails with the driver's error, and *pitch holds
 * what the driver wrote there, the width rounded up to 512 bytes (wrapping: 0 for SIZE_MAX),
 * whether the size (pitch x height, wrapping too) is 0 (invalid value) or too large (out of
 * memory). (Seen on an H200 under NVIDIA's 13.0.96 with driver 580.159.04;
 * scripts/gpu/standin-gpu.sh checks it against NVIDIA's runtimes.) */
static void pitch_impossible(void) {
    static const struct {
        size_t w, h;
        const char *label;
    } c[] = {
        {(size_t)1 << 63, 2, "2^63 x 2"},
        {(size_t)1 << 32, (size_t)1 << 32, "2^32 x 2^32"},
        {SIZE_MAX, 1, "SIZE_MAX x 1"},
        {SIZE_MAX - 100000, 1, "SIZE_MAX - 100000 x 1"},
        {((size_t)1 << 40) + 3, (size_t)1 << 30, "2^40 + 3 x 2^30"},
        {1000, (size_t)1 << 50, "1000 x 2^50"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        void *d = NULL;
        size_t pitch = 7;
        cudaError_t r = cudaMallocPitch(&d, &pitch, c[i].w, c[i].h);
        printf("  cudaMallocPitch(%s): %s, pitch %#zx\n", c[i].label, cudaGetErrorName(r), pitch);
        if (r == cudaSuccess) cudaFree(d);
        cudaGetLastError();
    }
}

static const ct_case cases[] = {
    {"register device memory", reg_device_base, 0},
    {"register inside device memory", reg_device_inside, 0},
    {"register across the end of device memory", reg_device_tail, 0},
    {"register just past device memory", reg_device_past, 0},
    {"register page-locked memory", reg_pinned, 0},
    {"register managed memory", reg_managed, 0},
    {"register 2^64 - 10^15 bytes, then memset", reg_absurd, 0},
    {"register SIZE_MAX and 2^47 bytes", reg_size_max, 0},
    {"register past the end of a mapping, then memset", reg_past_mapping, 0},
    {"register unmapped addresses", reg_unmapped, 0},
    {"register a PROT_NONE page", reg_prot_none, 0},
    {"register a read-only page", reg_read_only, 0},
    {"register with IoMemory and unknown flags", reg_io_memory, 0},
    {"register overlapping ranges", reg_overlap, 0},
    {"register ranges sharing a page", reg_same_page, 0},
    {"register NULL and 0 bytes", reg_null, 0},
    {"memsets of registered memory", memset_registered, 0},
    {"cudaMemcpy3D from device memory at slices past it", copy3d_src_z, 0},
    {"cudaMemcpy3D to device memory at slices past it", copy3d_dst_z, 0},
    {"cudaMemcpy3D at rows past device memory", copy3d_y, 0},
    {"cudaMemcpy3D whose offset wraps", copy3d_wrap, 0},
    {"cudaMemcpy3D of more slices than device memory has", copy3d_depth, 0},
    {"cudaMemcpy2D of more rows than device memory has", copy2d_rows, 0},
    {"cudaMemcpy past the end of device memory", copy1d_past, 0},
    {"cudaMemcpy3D to an array past its extent", copy_array, 0},
    {"memsets past the end of device memory", memset_past, 0},
    {"cudaMallocPitch of widths no device can allocate", pitch_impossible, 0},
};

int main(void) {
    ct_run_cases(cases, (int)(sizeof cases / sizeof cases[0]));
    DONE();
}
