/* ctest: gpu checked */
/* Host memory that is not there: copies of every shape from and to unmapped, inaccessible and
 * read-only host memory and ranges that run into such memory, memsets of registered memory that
 * was unmapped, registrations of such ranges, and extents whose row or slice stride wraps. Each
 * case runs in order in a child process (cases.h): one that kills its process is printed as
 * such and the next runs in a new one, so that without checked mode the output is what happens
 * under NVIDIA's runtime (most of these kill the process). Run with CUDART_RS_CHECKED=1 (the
 * runner does, marker `checked`, comparing with expected/<abi>/checked_host.checked.out), every
 * guarded call (CT_G) must be refused with cudaErrorInvalidValue and no case may end its
 * process; the others must do what they do without it. */
#include <stdint.h>
#include "cases.h"

#define PAGE 4096

static char *dev_mem(void) {
    static char *d;
    if (!d && cudaMalloc((void **)&d, 1 << 20) != cudaSuccess) d = NULL;
    return d;
}

/* Three pages: read-write, PROT_NONE, read-only. */
static char *rw, *none, *ro;
static void pages(void) {
    if (rw) return;
    rw = ct_pages(3 * PAGE, PROT_READ | PROT_WRITE);
    none = rw + PAGE;
    ro = rw + 2 * PAGE;
    mprotect(none, PAGE, PROT_NONE);
    mprotect(ro, PAGE, PROT_READ);
}

/* Nothing is ever mapped below 64 KiB (vm.mmap_min_addr) nor at a non-canonical address. */
#define LOW ((void *)(uintptr_t)0x1000)
#define NONCANONICAL ((void *)(uintptr_t)0x8000000000000000ull)

static void controls(void) {
    pages();
    CT_R("cudaMemcpy(dev, rw, 64, HostToDevice)", cudaMemcpy(dev_mem(), rw, 64, cudaMemcpyHostToDevice));
    CT_R("cudaMemcpy(rw, dev, 64, DeviceToHost)", cudaMemcpy(rw, dev_mem(), 64, cudaMemcpyDeviceToHost));
    CT_R("cudaMemcpy(dev, ro, 64, Default)", cudaMemcpy(dev_mem(), ro, 64, cudaMemcpyDefault));
    CT_R("cudaMemcpy(dev, rw + 4088, 8, HostToDevice): up to the page's end", cudaMemcpy(dev_mem(), rw + PAGE - 8, 8, cudaMemcpyHostToDevice));
    CT_R("cudaMemcpy2D(dev, 512, rw, 1024, 64, 4, HostToDevice)", cudaMemcpy2D(dev_mem(), 512, rw, 1024, 64, 4, cudaMemcpyHostToDevice));
    CT_R("cudaMemcpy(rw, rw + 64, 64, HostToHost)", cudaMemcpy(rw, rw + 64, 64, cudaMemcpyHostToHost));
}

static void h2d_low(void) { CT_G("cudaMemcpy(dev, 0x1000, 16, HostToDevice)", cudaMemcpy(dev_mem(), LOW, 16, cudaMemcpyHostToDevice)); }
static void d2h_low(void) { CT_G("cudaMemcpy(0x1000, dev, 16, DeviceToHost)", cudaMemcpy(LOW, dev_mem(), 16, cudaMemcpyDeviceToHost)); }
static void default_low(void) { CT_G("cudaMemcpy(dev, 0x1000, 16, Default)", cudaMemcpy(dev_mem(), LOW, 16, cudaMemcpyDefault)); }
static void h2d_noncanonical(void) {
    CT_G("cudaMemcpy(dev, 2^63, 16, HostToDevice)", cudaMemcpy(dev_mem(), NONCANONICAL, 16, cudaMemcpyHostToDevice));
}
static void h2d_none(void) {
    pages();
    CT_G("cudaMemcpy(dev, PROT_NONE page, 16, HostToDevice)", cudaMemcpy(dev_mem(), none, 16, cudaMemcpyHostToDevice));
}
static void d2h_ro(void) {
    pages();
    CT_G("cudaMemcpy(read-only page, dev, 16, DeviceToHost)", cudaMemcpy(ro, dev_mem(), 16, cudaMemcpyDeviceToHost));
}
static void h2d_into_guard(void) {
    pages();
    CT_G("cudaMemcpy(dev, rw + 4088, 16, HostToDevice): 8 bytes into PROT_NONE", cudaMemcpy(dev_mem(), rw + PAGE - 8, 16, cudaMemcpyHostToDevice));
}
static void h2h_low(void) {
    pages();
    CT_G("cudaMemcpy(rw, 0x1000, 16, HostToHost)", cudaMemcpy(rw, LOW, 16, cudaMemcpyHostToHost));
}
static void async_d2h_none(void) {
    pages();
    CT_G("cudaMemcpyAsync(PROT_NONE page, dev, 16, DeviceToHost, 0)", cudaMemcpyAsync(none, dev_mem(), 16, cudaMemcpyDeviceToHost, 0));
    CT_R("cudaStreamSynchronize(0)", cudaStreamSynchronize(0));
}
static void wrap_1d(void) {
    CT_G("cudaMemcpy(dev, 2^64 - 8, 16, HostToDevice): the range wraps",
         cudaMemcpy(dev_mem(), (void *)(uintptr_t)(UINT64_MAX - 7), 16, cudaMemcpyHostToDevice));
}

static void copy2d_low(void) {
    CT_G("cudaMemcpy2D(dev, 512, 0x1000, 64, 16, 4, HostToDevice)", cudaMemcpy2D(dev_mem(), 512, LOW, 64, 16, 4, cudaMemcpyHostToDevice));
}
static void copy2d_into_guard(void) {
    pages();
    CT_G("cudaMemcpy2D(dev, 512, rw, 4096, 16, 2, HostToDevice): row 1 in PROT_NONE",
         cudaMemcpy2D(dev_mem(), 512, rw, PAGE, 16, 2, cudaMemcpyHostToDevice));
}
static void copy2d_to_ro(void) {
    pages();
    CT_G("cudaMemcpy2D(rw, 4096, dev, 512, 16, 3, DeviceToHost): row 2 read-only",
         cudaMemcpy2D(rw, PAGE, dev_mem(), 512, 16, 3, cudaMemcpyDeviceToHost));
}
static void copy2d_async_low(void) {
    CT_G("cudaMemcpy2DAsync(0x1000, 64, dev, 512, 16, 4, DeviceToHost, 0)",
         cudaMemcpy2DAsync(LOW, 64, dev_mem(), 512, 16, 4, cudaMemcpyDeviceToHost, 0));
    CT_R("cudaStreamSynchronize(0)", cudaStreamSynchronize(0));
}

static cudaError_t copy3d(void *host, size_t pitch, size_t ysize, int to_host, struct cudaExtent e, int async) {
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    struct cudaPitchedPtr h = make_cudaPitchedPtr(host, pitch, pitch, ysize);
    struct cudaPitchedPtr d = make_cudaPitchedPtr(dev_mem(), 512, 512, 8);
    p.srcPtr = to_host ? d : h;
    p.dstPtr = to_host ? h : d;
    p.extent = e;
    p.kind = to_host ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
    return async ? cudaMemcpy3DAsync(&p, 0) : cudaMemcpy3D(&p);
}
static void copy3d_low(void) {
    CT_G("cudaMemcpy3D from 0x1000 (pitch 64, 4 rows a slice), 16 x 4 x 2", copy3d(LOW, 64, 4, 0, make_cudaExtent(16, 4, 2), 0));
}
static void copy3d_slice_into_guard(void) {
    pages();
    CT_G("cudaMemcpy3D from rw (pitch 1024, 4 rows a slice), 16 x 4 x 2: slice 1 in PROT_NONE",
         copy3d(rw, 1024, 4, 0, make_cudaExtent(16, 4, 2), 0));
}
static void copy3d_to_ro(void) {
    pages();
    CT_G("cudaMemcpy3D to rw (pitch 2048, 1 row a slice), 16 x 1 x 3: slice 2 read-only", copy3d(rw, 2048, 1, 1, make_cudaExtent(16, 1, 3), 0));
}
static void copy3d_async_none(void) {
    pages();
    CT_G("cudaMemcpy3DAsync to a PROT_NONE page, 16 x 1 x 1", copy3d(none, 64, 1, 1, make_cudaExtent(16, 1, 1), 1));
    CT_R("cudaStreamSynchronize(0)", cudaStreamSynchronize(0));
}

static cudaArray_t array(void) {
    static cudaArray_t a;
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    if (!a && cudaMallocArray(&a, &f, 64, 4, 0) != cudaSuccess) a = NULL;
    return a;
}
static void to_array_low(void) {
    CT_G("cudaMemcpy2DToArray(a, 0, 0, 0x1000, 64, 64, 4, HostToDevice)", cudaMemcpy2DToArray(array(), 0, 0, LOW, 64, 64, 4, cudaMemcpyHostToDevice));
}
static void from_array_none(void) {
    pages();
    CT_G("cudaMemcpy2DFromArray(PROT_NONE page, 64, a, 0, 0, 64, 4, DeviceToHost)",
         cudaMemcpy2DFromArray(none, 64, array(), 0, 0, 64, 4, cudaMemcpyDeviceToHost));
}
static void from_array_into_guard(void) {
    pages();
    CT_G("cudaMemcpy2DFromArray(rw + 4032, 64, a, 0, 0, 64, 2, DeviceToHost): row 1 in PROT_NONE",
         cudaMemcpy2DFromArray(rw + PAGE - 64, 64, array(), 0, 0, 64, 2, cudaMemcpyDeviceToHost));
}
static void to_array_3d_low(void) {
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(LOW, 64, 64, 4);
    p.dstArray = array();
    p.extent = make_cudaExtent(64, 4, 1);
    p.kind = cudaMemcpyHostToDevice;
    CT_G("cudaMemcpy3D to an array from 0x1000", cudaMemcpy3D(&p));
}

/* Registered memory: the registration and memsets of it. */
static void reg_g(const char *label, void *p, size_t n, unsigned flags) {
    if (CT_G(label, cudaHostRegister(p, n, flags)) == cudaSuccess) CT_R("cudaHostUnregister", cudaHostUnregister(p));
}
static void register_bad(void) {
    pages();
    reg_g("cudaHostRegister(PROT_NONE page, 4096)", none, PAGE, 0);
    reg_g("cudaHostRegister(0x1000, 4096)", LOW, PAGE, 0);
    reg_g("cudaHostRegister(rw, 8192): its second page PROT_NONE", rw, 2 * PAGE, 0);
    reg_g("cudaHostRegister(ro, 4096) read-write", ro, PAGE, 0);
    cudaError_t r = CT_R("cudaHostRegister(ro, 4096, ReadOnly)", cudaHostRegister(ro, PAGE, cudaHostRegisterReadOnly));
    if (r == cudaSuccess) CT_R("cudaHostUnregister(ro)", cudaHostUnregister(ro));
}
static void memset_unmapped_registered(void) {
    char *h = ct_pages(2 * PAGE, PROT_READ | PROT_WRITE);
    if (CT_R("cudaHostRegister(h, 8192)", cudaHostRegister(h, 2 * PAGE, 0)) != cudaSuccess) return;
    CT_R("cudaMemset(h, 1, 8192)", cudaMemset(h, 1, 2 * PAGE));
    munmap(h + PAGE, PAGE);
    CT_R("cudaMemset(h, 2, 4096): the page still mapped", cudaMemset(h, 2, PAGE));
    CT_G("cudaMemset(h + 4096, 3, 16) after that page was unmapped", cudaMemset(h + PAGE, 3, 16));
    CT_G("cudaMemset2D(h, 4096, 4, 16, 2): row 1 unmapped", cudaMemset2D(h, PAGE, 4, 16, 2));
    CT_G("cudaMemsetAsync(h + 4096, 5, 16, 0)", cudaMemsetAsync(h + PAGE, 5, 16, 0));
    CT_R("cudaStreamSynchronize(0)", cudaStreamSynchronize(0));
    CT_R("cudaHostUnregister(h)", cudaHostUnregister(h));
    munmap(h, PAGE);
}
/* Extents whose strides wrap. */
static void copy2d_pitch_wraps(void) {
    pages();
    CT_G("cudaMemcpy2D(rw, 64, dev, 2^63, 16, 3, DeviceToHost): the rows wrap",
         cudaMemcpy2D(rw, 64, dev_mem(), (size_t)1 << 63, 16, 3, cudaMemcpyDeviceToHost));
}
static void memset3d_stride_wraps(void) {
    /* pitch 2^32, 2^32 rows a slice: the slice stride is 2^64, 0 once wrapped. */
    CT_G("cudaMemset3D(pitch 2^32, ysize 2^32, 1 x 1 x SIZE_MAX)",
         cudaMemset3D(make_cudaPitchedPtr(dev_mem(), (size_t)1 << 32, 1, (size_t)1 << 32), 0, make_cudaExtent(1, 1, SIZE_MAX)));
}

static const ct_case cases[] = {
    {"valid copies", controls, 0},
    {"HostToDevice from an unmapped address", h2d_low, 0},
    {"DeviceToHost to an unmapped address", d2h_low, 0},
    {"Default from an unmapped address", default_low, 0},
    {"HostToDevice from a non-canonical address", h2d_noncanonical, 0},
    {"HostToDevice from a PROT_NONE page", h2d_none, 0},
    {"DeviceToHost to a read-only page", d2h_ro, 0},
    {"HostToDevice running into a PROT_NONE page", h2d_into_guard, 0},
    {"HostToHost from an unmapped address", h2h_low, 0},
    {"cudaMemcpyAsync to a PROT_NONE page", async_d2h_none, 0},
    {"a 1D range that wraps", wrap_1d, 0},
    {"cudaMemcpy2D from an unmapped address", copy2d_low, 0},
    {"cudaMemcpy2D with a row in a PROT_NONE page", copy2d_into_guard, 0},
    {"cudaMemcpy2D with a row in a read-only page", copy2d_to_ro, 0},
    {"cudaMemcpy2DAsync to an unmapped address", copy2d_async_low, 0},
    {"cudaMemcpy3D from an unmapped address", copy3d_low, 0},
    {"cudaMemcpy3D with a slice in a PROT_NONE page", copy3d_slice_into_guard, 0},
    {"cudaMemcpy3D with a slice in a read-only page", copy3d_to_ro, 0},
    {"cudaMemcpy3DAsync to a PROT_NONE page", copy3d_async_none, 0},
    {"cudaMemcpy2DToArray from an unmapped address", to_array_low, 0},
    {"cudaMemcpy2DFromArray to a PROT_NONE page", from_array_none, 0},
    {"cudaMemcpy2DFromArray with a row in a PROT_NONE page", from_array_into_guard, 0},
    {"cudaMemcpy3D to an array from an unmapped address", to_array_3d_low, 0},
    {"registrations of memory that is not all there", register_bad, 0},
    {"memsets of registered memory that was unmapped", memset_unmapped_registered, 0},
    {"cudaMemcpy2D whose rows wrap", copy2d_pitch_wraps, 0},
    {"cudaMemset3D whose slice stride wraps", memset3d_stride_wraps, CT_HANGS},
};

int main(void) {
    ct_run_cases(cases, (int)(sizeof cases / sizeof cases[0]));
    DONE();
}
