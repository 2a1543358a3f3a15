/* ctest: gpu cu */
/* A library loaded from this program's own fat binary (nvcc's .nv_fatbin section, read from
 * /proc/self/exe), from memory and from a file: its kernels, __device__ and __managed__
 * variables are other instances than the registered ones (clang builds, for the 12 ABI, have
 * no __managed__: m_count is a __device__ variable there, read through copies); its kernels launched with
 * cudaLaunchKernel, cudaLaunchKernelExC and cudaLaunchCooperativeKernel; attributes,
 * occupancy, names and cudaKernelSetAttributeForDevice on library kernels, on kernels from
 * cudaGetKernel and on host stubs. */
#include <elf.h>
#include <stdint.h>
#include <unistd.h>

#include <vector>

#include "ctest.h"

__device__ int d_base = 100;
#ifndef CT_CLANG_CUDA
__managed__ int m_count = 5;
#else
__device__ int m_count = 5; /* clang has no __managed__: the kernels read the same values */
#endif

extern "C" __global__ void lib_fill(int *out, int v) {
    int i = threadIdx.x;
    out[i] = v + i + d_base + m_count;
}

extern "C" __global__ void lib_bump(int by) { atomicAdd(&m_count, by); }

extern "C" __global__ void lib_shared(int *out) {
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x * 3;
    __syncthreads();
    out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

/* The largest fat binary of this executable's .nv_fatbin section (this file's: the section
 * may hold others first, of no kernels of ours), in 8-byte aligned memory (empty if there is
 * none). */
static std::vector<unsigned long long> own_fatbin(void) {
    std::vector<unsigned long long> out;
    FILE *f = fopen("/proc/self/exe", "rb");
    if (!f) return out;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    std::vector<unsigned char> b((size_t)n);
    size_t got = fread(b.data(), 1, b.size(), f);
    fclose(f);
    if (got != b.size() || b.size() < sizeof(Elf64_Ehdr)) return out;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b.data();
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(b.data() + eh->e_shoff);
    const char *names = (const char *)(b.data() + sh[eh->e_shstrndx].sh_offset);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (strcmp(names + sh[i].sh_name, ".nv_fatbin") != 0) continue;
        const unsigned char *sec = b.data() + sh[i].sh_offset;
        size_t at = 0, best = 0, best_bytes = 0;
        while (at + 16 <= sh[i].sh_size) {
            uint32_t magic;
            uint16_t header;
            uint64_t size;
            memcpy(&magic, sec + at, 4);
            memcpy(&header, sec + at + 6, 2);
            memcpy(&size, sec + at + 8, 8);
            if (magic != 0xBA55ED50u || header + size > sh[i].sh_size - at) break;
            if (header + size > best_bytes) {
                best = at;
                best_bytes = header + size;
            }
            at = (at + header + size + 7) / 8 * 8;
        }
        if (best_bytes == 0) return out;
        out.resize((best_bytes + 7) / 8);
        memcpy(out.data(), sec + best, best_bytes);
        return out;
    }
    return out;
}

static void show_attrs(const char *label, const void *f) {
    struct cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t e = cudaFuncGetAttributes(&a, f);
    if (e != cudaSuccess) {
        printf("%s attrs: %s\n", label, cudaGetErrorName(e));
        return;
    }
    printf("%s attrs: maxThreads=%d shared=%zu local=%zu regs=%d ptx=%d binary=%d maxDynShared=%d carveout=%d\n", label,
           a.maxThreadsPerBlock, a.sharedSizeBytes, a.localSizeBytes, a.numRegs, a.ptxVersion, a.binaryVersion,
           a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout);
}

static void show_name(const char *label, const void *f) {
    const char *name = NULL;
    cudaError_t e = cudaFuncGetName(&name, f);
    printf("%s name: %s %s\n", label, cudaGetErrorName(e), e == cudaSuccess && name ? name : "-");
}

static int *d_out;

/* lib_fill through `f` with cudaLaunchKernel on 8 threads; prints out[0] and out[7]. */
static void fill(const char *label, const void *f, int v) {
    int h[8] = {0};
    OK(cudaMemset(d_out, 0, sizeof h));
    void *args[] = {&d_out, &v};
    printf("%s launch: %s\n", label, cudaGetErrorName(cudaLaunchKernel(f, dim3(1), dim3(8), args, 0, 0)));
    SHOW("  sync", cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s out[0] = %d, out[7] = %d\n", label, h[0], h[7]);
}

int main(void) {
    OK(cudaMalloc((void **)&d_out, 64 * sizeof(int)));
    /* The registered kernels first: the program's own module. */
    fill("registered lib_fill", (const void *)lib_fill, 1);

    std::vector<unsigned long long> fb = own_fatbin();
    SHOWI("fat binary found", !fb.empty());
    cudaLibrary_t lib = NULL;
    SHOW("load own fat binary", cudaLibraryLoadData(&lib, fb.data(), NULL, NULL, 0, NULL, NULL, 0));
    if (!lib) {
        DONE();
    }
    unsigned count = 0;
    SHOW("kernel count", cudaLibraryGetKernelCount(&count, lib));
    SHOWU("kernel count", count);
    cudaKernel_t ks[8];
    memset(ks, 0, sizeof ks);
    SHOW("enumerate", cudaLibraryEnumerateKernels(ks, count < 8 ? count : 8, lib));
    for (unsigned i = 0; i < count && i < 8; i++) {
        char label[32];
        snprintf(label, sizeof label, "kernel %u", i);
        show_name(label, (const void *)ks[i]);
    }

    cudaKernel_t kf = NULL, kb = NULL, ks2 = NULL, reg = NULL;
    SHOW("get lib_fill", cudaLibraryGetKernel(&kf, lib, "lib_fill"));
    SHOW("get lib_bump", cudaLibraryGetKernel(&kb, lib, "lib_bump"));
    SHOW("get lib_shared", cudaLibraryGetKernel(&ks2, lib, "lib_shared"));
    SHOW("cudaGetKernel of the stub", cudaGetKernel(&reg, (const void *)lib_fill));
    SHOWI("library kernel is the registered one", kf == reg);
    show_name("library lib_fill", (const void *)kf);
    show_name("registered stub", (const void *)lib_fill);
    show_name("cudaGetKernel handle", (const void *)reg);

    /* Variables of the library are its own. */
    int *gp = NULL, *mp = NULL;
    size_t gs = 0, ms = 0;
    SHOW("global d_base", cudaLibraryGetGlobal((void **)&gp, &gs, lib, "d_base"));
    SHOWU("global d_base size", gs);
    void *reg_base = NULL;
    OK(cudaGetSymbolAddress(&reg_base, d_base));
    SHOWI("library d_base is the registered one", (void *)gp == reg_base);
    int v = 0;
    if (gp) OK(cudaMemcpy(&v, gp, sizeof v, cudaMemcpyDeviceToHost));
    SHOWI("library d_base", v);
    v = 300;
    if (gp) OK(cudaMemcpy(gp, &v, sizeof v, cudaMemcpyHostToDevice));
#ifndef CT_CLANG_CUDA
    SHOW("managed m_count", cudaLibraryGetManaged((void **)&mp, &ms, lib, "m_count"));
    SHOWU("managed m_count size", ms);
    SHOWI("library m_count is the registered one", mp == &m_count);
    if (mp) SHOWI("library m_count", *mp);
#else
    /* m_count is a __device__ variable here: what cudaLibraryGetManaged says of one; the
     * library's m_count is then read through its global's address. */
    printf("__managed__ variable: not in this build (clang)\n");
    SHOW("managed m_count (a __device__ variable)", cudaLibraryGetManaged((void **)&mp, &ms, lib, "m_count"));
    mp = NULL;
    int *mg = NULL;
    OK(cudaLibraryGetGlobal((void **)&mg, NULL, lib, "m_count"));
    int mv = 0;
    if (mg) OK(cudaMemcpy(&mv, mg, sizeof mv, cudaMemcpyDeviceToHost));
    SHOWI("library m_count", mv);
#endif

    fill("library lib_fill", (const void *)kf, 1);
    int by = 10;
    void *bargs[] = {&by};
    SHOW("library lib_bump", cudaLaunchKernel((const void *)kb, dim3(1), dim3(4), bargs, 0, 0));
    SHOW("library lib_bump sync", cudaDeviceSynchronize());
#ifndef CT_CLANG_CUDA
    if (mp) SHOWI("library m_count after bump", *mp);
    SHOWI("registered m_count after the library's bump", m_count);
#else
    mv = 0;
    if (mg) OK(cudaMemcpy(&mv, mg, sizeof mv, cudaMemcpyDeviceToHost));
    SHOWI("library m_count after bump", mv);
    mv = 0;
    OK(cudaMemcpyFromSymbol(&mv, m_count, sizeof mv));
    SHOWI("registered m_count after the library's bump", mv);
#endif
    int reg_v = 0;
    OK(cudaMemcpyFromSymbol(&reg_v, d_base, sizeof reg_v));
    SHOWI("registered d_base", reg_v);
    fill("registered lib_fill again", (const void *)lib_fill, 1);
    fill("cudaGetKernel handle", (const void *)reg, 2);

    /* Other launches of library kernels. */
    {
        int h[64];
        void *args[] = {&d_out};
        cudaLaunchConfig_t cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.gridDim = dim3(1);
        cfg.blockDim = dim3(16);
        cfg.dynamicSmemBytes = 16 * sizeof(int);
        SHOW("launch ex lib_shared", cudaLaunchKernelExC(&cfg, (const void *)ks2, args));
        SHOW("launch ex sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, 16 * sizeof(int), cudaMemcpyDeviceToHost));
        printf("lib_shared out[0] = %d, out[15] = %d\n", h[0], h[15]);
        cudaLaunchAttribute attr;
        memset(&attr, 0, sizeof attr);
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = 1;
        attr.val.clusterDim.y = 1;
        attr.val.clusterDim.z = 1;
        cfg.attrs = &attr;
        cfg.numAttrs = 1;
        SHOW("launch ex with cluster attribute", cudaLaunchKernelExC(&cfg, (const void *)ks2, args));
        SHOW("launch ex with cluster attribute sync", cudaDeviceSynchronize());
        int v2 = 7;
        void *fargs[] = {&d_out, &v2};
        SHOW("cooperative lib_fill", cudaLaunchCooperativeKernel((const void *)kf, dim3(1), dim3(8), fargs, 0, 0));
        SHOW("cooperative sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, 8 * sizeof(int), cudaMemcpyDeviceToHost));
        printf("cooperative out[7] = %d\n", h[7]);
        SHOW("lib_shared, too much dynamic shared", cudaLaunchKernel((const void *)ks2, dim3(1), dim3(16), args, 200000, 0));
        SHOW_LAST("too much dynamic shared");
    }

    /* Attributes, occupancy and per-device attributes. */
    show_attrs("library lib_shared", (const void *)ks2);
    SHOW("set max dynamic shared 100000 (func)",
         cudaFuncSetAttribute((const void *)ks2, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000));
    show_attrs("after cudaFuncSetAttribute", (const void *)ks2);
    SHOW("for device 0: max dynamic shared 120000",
         cudaKernelSetAttributeForDevice(ks2, cudaFuncAttributeMaxDynamicSharedMemorySize, 120000, 0));
    show_attrs("after cudaKernelSetAttributeForDevice", (const void *)ks2);
    {
        int h[2];
        void *args[] = {&d_out};
        SHOW("lib_shared with 110000 dynamic shared", cudaLaunchKernel((const void *)ks2, dim3(1), dim3(16), args, 110000, 0));
        SHOW("sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        printf("lib_shared 110000 out[0] = %d\n", h[0]);
    }
    SHOW("for device 0 on the cudaGetKernel handle",
         cudaKernelSetAttributeForDevice(reg, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096, 0));
    show_attrs("registered lib_fill", (const void *)lib_fill);
    int blocks = -1;
    SHOW("occupancy", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)kf, 256, 0));
    SHOWI("occupancy blocks", blocks);
    size_t dyn = 0;
    SHOW("available dynamic shared", cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, (const void *)ks2, 1, 128));
    SHOWU("available dynamic shared", dyn);
    size_t off = 99, sz = 99;
    SHOW("param info 1", cudaFuncGetParamInfo((const void *)kf, 1, &off, &sz));
    printf("param info 1: offset %zu size %zu\n", off, sz);
    SHOW("cache config", cudaFuncSetCacheConfig((const void *)kf, cudaFuncCachePreferShared));
    SHOW_LAST("cache config");

    /* Loading again gives another library with other variables. */
    cudaLibrary_t lib2 = NULL;
    SHOW("load again", cudaLibraryLoadData(&lib2, fb.data(), NULL, NULL, 0, NULL, NULL, 0));
    int *gp2 = NULL;
    if (lib2) SHOW("global of the second", cudaLibraryGetGlobal((void **)&gp2, NULL, lib2, "d_base"));
    SHOWI("second library's d_base is the first's", gp2 == gp);
    if (gp2) OK(cudaMemcpy(&v, gp2, sizeof v, cudaMemcpyDeviceToHost));
    SHOWI("second library's d_base", v);
    if (lib2) SHOW("unload the second", cudaLibraryUnload(lib2));

    /* From a file. */
    {
        char path[] = "/tmp/cudart-rs-cu-library-XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0);
        size_t bytes = fb.size() * 8;
        CHECK(write(fd, fb.data(), bytes) == (ssize_t)bytes);
        close(fd);
        cudaLibrary_t l = NULL;
        SHOW("load own fat binary from a file", cudaLibraryLoadFromFile(&l, path, NULL, NULL, 0, NULL, NULL, 0));
        unlink(path);
        if (l) {
            cudaKernel_t k = NULL;
            OK(cudaLibraryGetKernel(&k, l, "lib_fill"));
            fill("file lib_fill", (const void *)k, 0);
            SHOW("unload the file's", cudaLibraryUnload(l));
        }
    }

    SHOW("unload", cudaLibraryUnload(lib));
    /* The registered kernels still work. */
    fill("registered lib_fill after unload", (const void *)lib_fill, 1);
    /* Last: a host stub where a kernel handle belongs. */
    SHOW("for device 0 on a host stub",
         cudaKernelSetAttributeForDevice((cudaKernel_t)(void *)lib_bump, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096, 0));
    SHOW_LAST("host stub");
    show_attrs("registered lib_bump", (const void *)lib_bump);
    OK(cudaFree(d_out));
    DONE();
}
