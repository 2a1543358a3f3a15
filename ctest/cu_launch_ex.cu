/* ctest: gpu cu */
/* cudaLaunchKernelExC and the cudaLaunchKernelEx template with every launch attribute an H100
 * supports: cluster dimension (the kernel reads its cluster rank through cooperative groups),
 * cooperative (a grid-wide sync), priority, programmatic stream serialization and programmatic
 * event, memory sync domain map and domain, launch completion event, access policy window,
 * shared memory carveout, preferred cluster dimension; the _ptsz export; errors: bad
 * functions, grid and block limits, cluster dimensions that do not divide the grid,
 * attributes that are not launch attributes, out-of-range values. Kernels write results that
 * are read back and checked. */
#include "ctest.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args);

#define N 1024

__global__ void fill(int *out, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = v + i;
}

/* Each block writes its cluster rank, the cluster's size and the cluster's index. */
__global__ void cluster_ranks(int *out) {
    cg::cluster_group c = cg::this_cluster();
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = (int)c.block_rank();
        out[3 * blockIdx.x + 1] = (int)c.num_blocks();
        out[3 * blockIdx.x + 2] = (int)(blockIdx.x / c.num_blocks());
    }
}

/* Phase 1 writes one value per block; after the grid-wide sync every block sums them all. */
__global__ void grid_sum(int *vals, int *sums) {
    cg::grid_group g = cg::this_grid();
    if (threadIdx.x == 0) vals[blockIdx.x] = blockIdx.x + 1;
    g.sync();
    if (threadIdx.x == 0) {
        int s = 0;
        for (unsigned b = 0; b < gridDim.x; b++) s += vals[b];
        sums[blockIdx.x] = s;
    }
}

/* Programmatic dependent launch: the primary writes, then lets the secondary start; the
 * secondary waits for the primary's memory before it reads. */
__global__ void primary(int *buf) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[i] = 3 * i;
    __syncthreads();
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

__global__ void secondary(const int *buf, int *out) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = buf[i] + 1;
}

__global__ void add(int *p, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i] += v;
}

__global__ void big_shared(int *out) {
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

static int h[N];
static int *d_out, *d_buf;

static cudaLaunchConfig_t config(unsigned grid, unsigned block, cudaLaunchAttribute *attrs, unsigned n) {
    cudaLaunchConfig_t c;
    memset(&c, 0, sizeof c);
    c.gridDim = dim3(grid);
    c.blockDim = dim3(block);
    c.dynamicSmemBytes = 0;
    c.stream = 0;
    c.attrs = attrs;
    c.numAttrs = n;
    return c;
}

/* Launches fill(d_out, v) with one attribute and checks what it wrote. */
static void fill_with(const char *what, cudaLaunchAttribute *a, unsigned n, int v) {
    char label[160];
    OK(cudaMemset(d_out, 0, N * sizeof(int)));
    cudaLaunchConfig_t c = config(N / 128, 128, a, n);
    void *args[] = {&d_out, &v};
    snprintf(label, sizeof label, "fill with %s", what);
    cudaError_t e = SHOW(label, cudaLaunchKernelExC(&c, (const void *)fill, args));
    if (e != cudaSuccess) {
        SHOW_LAST(label);
        return;
    }
    snprintf(label, sizeof label, "fill with %s sync", what);
    SHOW(label, cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    int good = 1;
    for (int i = 0; i < N; i++) good &= h[i] == v + i;
    CHECK(good);
    snprintf(label, sizeof label, "fill with %s h[1000]", what);
    SHOWI(label, h[1000]);
}

static cudaLaunchAttribute attr(cudaLaunchAttributeID id) {
    cudaLaunchAttribute a;
    memset(&a, 0, sizeof a);
    a.id = id;
    return a;
}

int main(void) {
    OK(cudaMalloc((void **)&d_out, N * sizeof(int)));
    OK(cudaMalloc((void **)&d_buf, N * sizeof(int)));

    /* No attributes; attrs ignored when numAttrs is 0. */
    fill_with("no attributes", NULL, 0, 10);
    cudaLaunchAttribute junk = attr((cudaLaunchAttributeID)12345);
    fill_with("numAttrs 0 and a junk attribute", &junk, 0, 11);
    cudaLaunchAttribute ign = attr(cudaLaunchAttributeIgnore);
    fill_with("Ignore", &ign, 1, 12);

    /* Cluster dimension: each block reads its rank in its cluster. */
    {
        cudaLaunchAttribute a = attr(cudaLaunchAttributeClusterDimension);
        a.val.clusterDim.x = 2;
        a.val.clusterDim.y = 1;
        a.val.clusterDim.z = 1;
        OK(cudaMemset(d_out, 0xff, N * sizeof(int)));
        cudaLaunchConfig_t c = config(8, 64, &a, 1);
        void *args[] = {&d_out};
        SHOW("cluster 2 of grid 8", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW("cluster 2 sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, 24 * sizeof(int), cudaMemcpyDeviceToHost));
        int good = 1;
        for (int b = 0; b < 8; b++) good &= h[3 * b] == b % 2 && h[3 * b + 1] == 2 && h[3 * b + 2] == b / 2;
        CHECK(good);
        printf("cluster 2: block 5 rank %d of %d, cluster %d\n", h[15], h[16], h[17]);

        a.val.clusterDim.x = 4;
        c = config(16, 32, &a, 1);
        SHOW("cluster 4 of grid 16", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW("cluster 4 sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, 48 * sizeof(int), cudaMemcpyDeviceToHost));
        good = 1;
        for (int b = 0; b < 16; b++) good &= h[3 * b] == b % 4 && h[3 * b + 1] == 4 && h[3 * b + 2] == b / 4;
        CHECK(good);
        printf("cluster 4: block 14 rank %d of %d, cluster %d\n", h[42], h[43], h[44]);

        /* Without the attribute a cluster kernel runs in clusters of one. */
        c = config(4, 32, NULL, 0);
        SHOW("no cluster attribute", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW("no cluster attribute sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, 12 * sizeof(int), cudaMemcpyDeviceToHost));
        printf("no cluster attribute: block 3 rank %d of %d\n", h[9], h[10]);

        /* Errors: a cluster that does not divide the grid, too large, zero. */
        a.val.clusterDim.x = 2;
        c = config(3, 32, &a, 1);
        SHOW("cluster 2 of grid 3", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW_LAST("cluster 2 of grid 3");
        a.val.clusterDim.x = 16;
        c = config(16, 32, &a, 1);
        SHOW("cluster 16 (non-portable, not allowed)", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW_LAST("cluster 16");
        a.val.clusterDim.x = 64;
        c = config(64, 32, &a, 1);
        SHOW("cluster 64", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW_LAST("cluster 64");
        a.val.clusterDim.x = 0;
        c = config(4, 32, &a, 1);
        SHOW("cluster 0", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW_LAST("cluster 0");
        a.val.clusterDim.x = 2;
        a.val.clusterDim.y = 2;
        c = config(4, 32, &a, 1);
        SHOW("cluster 2x2 of grid 4x1", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW_LAST("cluster 2x2");
        SHOW("after cluster errors", cudaDeviceSynchronize());

        /* Non-portable cluster sizes, once the kernel allows them. */
        SHOW("allow non-portable cluster sizes",
             cudaFuncSetAttribute((const void *)cluster_ranks, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        a.val.clusterDim.x = 16;
        a.val.clusterDim.y = 1;
        c = config(16, 32, &a, 1);
        SHOW("cluster 16 (allowed)", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW("cluster 16 sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, 48 * sizeof(int), cudaMemcpyDeviceToHost));
        printf("cluster 16: block 15 rank %d of %d\n", h[45], h[46]);

        /* Preferred cluster dimension alongside the required one. */
        cudaLaunchAttribute two[2] = {attr(cudaLaunchAttributeClusterDimension),
                                      attr(cudaLaunchAttributePreferredClusterDimension)};
        two[0].val.clusterDim.x = 2;
        two[0].val.clusterDim.y = two[0].val.clusterDim.z = 1;
        two[1].val.preferredClusterDim.x = 4;
        two[1].val.preferredClusterDim.y = two[1].val.preferredClusterDim.z = 1;
        c = config(16, 32, two, 2);
        cudaError_t pe = SHOW("preferred cluster 4, cluster 2", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW_LAST("preferred cluster");
        SHOW("preferred cluster sync", cudaDeviceSynchronize());
        if (pe == cudaSuccess) {
            OK(cudaMemcpy(h, d_out, 48 * sizeof(int), cudaMemcpyDeviceToHost));
            good = 1;
            for (int b = 0; b < 16; b++) good &= h[3 * b] < h[3 * b + 1] && (h[3 * b + 1] == 2 || h[3 * b + 1] == 4);
            CHECK(good);
        }

        /* Cluster scheduling policy preference. */
        cudaLaunchAttribute sp[2] = {attr(cudaLaunchAttributeClusterDimension),
                                     attr(cudaLaunchAttributeClusterSchedulingPolicyPreference)};
        sp[0].val.clusterDim.x = 2;
        sp[0].val.clusterDim.y = sp[0].val.clusterDim.z = 1;
        sp[1].val.clusterSchedulingPolicyPreference = cudaClusterSchedulingPolicySpread;
        c = config(8, 32, sp, 2);
        SHOW("cluster with policy Spread", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        sp[1].val.clusterSchedulingPolicyPreference = (enum cudaClusterSchedulingPolicy)9;
        SHOW("cluster with policy 9", cudaLaunchKernelExC(&c, (const void *)cluster_ranks, args));
        SHOW_LAST("policy 9");
        SHOW("cluster policy sync", cudaDeviceSynchronize());
    }

    /* Cooperative: a grid-wide sync. */
    {
        cudaLaunchAttribute a = attr(cudaLaunchAttributeCooperative);
        a.val.cooperative = 1;
        int *vals = d_buf, *sums = d_out;
        void *args[] = {&vals, &sums};
        OK(cudaMemset(d_out, 0, N * sizeof(int)));
        cudaLaunchConfig_t c = config(32, 64, &a, 1);
        SHOW("cooperative grid 32", cudaLaunchKernelExC(&c, (const void *)grid_sum, args));
        SHOW("cooperative sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
        int good = 1;
        for (int b = 0; b < 32; b++) good &= h[b] == 32 * 33 / 2;
        CHECK(good);
        SHOWI("cooperative sum", h[31]);
        c = config(100000, 64, &a, 1);
        SHOW("cooperative grid too large", cudaLaunchKernelExC(&c, (const void *)grid_sum, args));
        SHOW_LAST("cooperative too large");
        a.val.cooperative = 0;
        fill_with("cooperative 0", &a, 1, 15);
        a.val.cooperative = 7;
        c = config(8, 64, &a, 1);
        SHOW("cooperative 7", cudaLaunchKernelExC(&c, (const void *)grid_sum, args));
        SHOW("cooperative 7 sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d_out, 8 * sizeof(int), cudaMemcpyDeviceToHost));
        SHOWI("cooperative 7 sum", h[7]);
    }

    /* Priority. */
    {
        int least = 0, greatest = 0;
        OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
        cudaLaunchAttribute a = attr(cudaLaunchAttributePriority);
        a.val.priority = greatest;
        fill_with("priority greatest", &a, 1, 20);
        a.val.priority = least;
        fill_with("priority least", &a, 1, 21);
        a.val.priority = -100;
        fill_with("priority -100", &a, 1, 22);
        a.val.priority = 100;
        fill_with("priority 100", &a, 1, 23);
    }

    /* Programmatic stream serialization: the secondary may start before the primary ends. */
    {
        cudaStream_t s;
        OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        OK(cudaMemset(d_out, 0, N * sizeof(int)));
        cudaLaunchConfig_t c = config(N / 128, 128, NULL, 0);
        c.stream = s;
        void *pargs[] = {&d_buf};
        SHOW("primary", cudaLaunchKernelExC(&c, (const void *)primary, pargs));
        cudaLaunchAttribute a = attr(cudaLaunchAttributeProgrammaticStreamSerialization);
        a.val.programmaticStreamSerializationAllowed = 1;
        c.attrs = &a;
        c.numAttrs = 1;
        void *sargs[] = {&d_buf, &d_out};
        SHOW("secondary with programmatic serialization", cudaLaunchKernelExC(&c, (const void *)secondary, sargs));
        SHOW("programmatic serialization sync", cudaStreamSynchronize(s));
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        int good = 1;
        for (int i = 0; i < N; i++) good &= h[i] == 3 * i + 1;
        CHECK(good);
        SHOWI("programmatic h[1000]", h[1000]);

        /* Programmatic event: recorded when every block of the primary has triggered; another
         * stream waits for it. */
        cudaEvent_t ev;
        OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
        cudaStream_t s2;
        OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
        OK(cudaMemset(d_out, 0, N * sizeof(int)));
        cudaLaunchAttribute pe = attr(cudaLaunchAttributeProgrammaticEvent);
        pe.val.programmaticEvent.event = ev;
        pe.val.programmaticEvent.flags = 0;
        pe.val.programmaticEvent.triggerAtBlockStart = 0;
        c = config(N / 128, 128, &pe, 1);
        c.stream = s;
        SHOW("primary with programmatic event", cudaLaunchKernelExC(&c, (const void *)primary, pargs));
        OK(cudaStreamWaitEvent(s2, ev, 0));
        c = config(N / 128, 128, NULL, 0);
        c.stream = s2;
        SHOW("secondary after the event", cudaLaunchKernelExC(&c, (const void *)secondary, sargs));
        SHOW("programmatic event sync", cudaStreamSynchronize(s2));
        SHOW("primary stream sync", cudaStreamSynchronize(s));
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        good = 1;
        for (int i = 0; i < N; i++) good &= h[i] == 3 * i + 1;
        CHECK(good);
        pe.val.programmaticEvent.triggerAtBlockStart = 1;
        c = config(N / 128, 128, &pe, 1);
        c.stream = s;
        SHOW("programmatic event at block start", cudaLaunchKernelExC(&c, (const void *)primary, pargs));
        SHOW("block start sync", cudaStreamSynchronize(s));
        pe.val.programmaticEvent.flags = cudaEventRecordExternal;
        SHOW("programmatic event with External flag", cudaLaunchKernelExC(&c, (const void *)primary, pargs));
        SHOW_LAST("programmatic External");
        pe.val.programmaticEvent.flags = 0;
        pe.val.programmaticEvent.event = NULL;
        SHOW("programmatic event NULL", cudaLaunchKernelExC(&c, (const void *)primary, pargs));
        SHOW_LAST("programmatic NULL event");
        SHOW("programmatic errors sync", cudaStreamSynchronize(s));

        /* Launch completion event. */
        cudaLaunchAttribute lc = attr(cudaLaunchAttributeLaunchCompletionEvent);
        lc.val.launchCompletionEvent.event = ev;
        lc.val.launchCompletionEvent.flags = 0;
        c = config(N / 128, 128, &lc, 1);
        c.stream = s;
        int v = 30;
        void *fargs[] = {&d_out, &v};
        SHOW("launch completion event", cudaLaunchKernelExC(&c, (const void *)fill, fargs));
        SHOW("launch completion event sync", cudaEventSynchronize(ev));
        SHOW("launch completion stream sync", cudaStreamSynchronize(s));
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        CHECK(h[1000] == 1030);
        SHOW("launch completion event query", cudaEventQuery(ev));
        lc.val.launchCompletionEvent.flags = cudaEventRecordExternal;
        SHOW("launch completion with External flag", cudaLaunchKernelExC(&c, (const void *)fill, fargs));
        SHOW_LAST("launch completion External");
        lc.val.launchCompletionEvent.flags = 0;
        lc.val.launchCompletionEvent.event = NULL;
        SHOW("launch completion NULL event", cudaLaunchKernelExC(&c, (const void *)fill, fargs));
        SHOW_LAST("launch completion NULL");
        SHOW("completion errors sync", cudaStreamSynchronize(s));

        OK(cudaEventDestroy(ev));
        ct_destroy_streams(s, s2, NULL);
    }

    /* Memory sync domains. */
    {
        cudaLaunchAttribute a[2] = {attr(cudaLaunchAttributeMemSyncDomainMap), attr(cudaLaunchAttributeMemSyncDomain)};
        a[0].val.memSyncDomainMap.default_ = 0;
        a[0].val.memSyncDomainMap.remote = 1;
        a[1].val.memSyncDomain = cudaLaunchMemSyncDomainRemote;
        fill_with("mem sync domain map and Remote domain", a, 2, 40);
        fill_with("mem sync domain Remote", &a[1], 1, 41);
        a[0].val.memSyncDomainMap.default_ = 3;
        a[0].val.memSyncDomainMap.remote = 2;
        fill_with("mem sync domain map {3, 2}", a, 1, 42);
        a[0].val.memSyncDomainMap.default_ = 9;
        fill_with("mem sync domain map {9, 2}", a, 1, 43);
        a[1].val.memSyncDomain = (enum cudaLaunchMemSyncDomain)5;
        fill_with("mem sync domain 5", &a[1], 1, 44);
    }

    /* Access policy window on the output. */
    {
        cudaLaunchAttribute a = attr(cudaLaunchAttributeAccessPolicyWindow);
        a.val.accessPolicyWindow.base_ptr = d_out;
        a.val.accessPolicyWindow.num_bytes = N * sizeof(int);
        a.val.accessPolicyWindow.hitRatio = 1.0f;
        a.val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        a.val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        fill_with("access policy window", &a, 1, 50);
        a.val.accessPolicyWindow.hitRatio = 2.0f;
        fill_with("access policy window hitRatio 2", &a, 1, 51);
        a.val.accessPolicyWindow.hitRatio = 0.5f;
        a.val.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
        fill_with("access policy window missProp persisting", &a, 1, 52);
    }

    /* Shared memory carveout. */
    {
        cudaLaunchAttribute a = attr(cudaLaunchAttributePreferredSharedMemoryCarveout);
        a.val.sharedMemCarveout = 50;
        fill_with("carveout 50", &a, 1, 60);
        a.val.sharedMemCarveout = 101;
        fill_with("carveout 101", &a, 1, 61);
    }

    /* Attributes that are not launch attributes, and unknown ids. */
    {
        cudaLaunchAttribute a = attr(cudaLaunchAttributeSynchronizationPolicy);
        a.val.syncPolicy = cudaSyncPolicySpin;
        fill_with("synchronization policy (a stream attribute)", &a, 1, 70);
        a = attr(cudaLaunchAttributeDeviceUpdatableKernelNode);
        a.val.deviceUpdatableKernelNode.deviceUpdatable = 1;
        fill_with("device updatable kernel node outside capture", &a, 1, 71);
        a = attr((cudaLaunchAttributeID)15);
        fill_with("id 15", &a, 1, 72);
        a = attr((cudaLaunchAttributeID)99);
        fill_with("id 99", &a, 1, 73);
        cudaLaunchAttribute dup[2] = {attr(cudaLaunchAttributePriority), attr(cudaLaunchAttributePriority)};
        fill_with("priority twice", dup, 2, 74);
    }

    /* The C++ template. */
    {
        cudaLaunchAttribute a = attr(cudaLaunchAttributePriority);
        a.val.priority = 0;
        cudaLaunchConfig_t c = config(N / 128, 128, &a, 1);
        SHOW("cudaLaunchKernelEx template", cudaLaunchKernelEx(&c, fill, d_out, 80));
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        CHECK(h[1000] == 1080);
        SHOWI("template h[1000]", h[1000]);
        cudaKernel_t k = NULL;
        OK(cudaGetKernel(&k, (const void *)fill));
        SHOW("cudaLaunchKernelEx template with a cudaKernel_t", cudaLaunchKernelEx(&c, k, d_out, 81));
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        SHOWI("cudaKernel_t h[1000]", h[1000]);
        int v = 82;
        void *args[] = {&d_out, &v};
        SHOW("cudaLaunchKernelExC with a cudaKernel_t", cudaLaunchKernelExC(&c, (const void *)k, args));
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        SHOWI("cudaKernel_t C h[1000]", h[1000]);
    }

    /* Streams and the _ptsz export. */
    {
        cudaStream_t s;
        OK(cudaStreamCreate(&s));
        cudaLaunchConfig_t c = config(N / 128, 128, NULL, 0);
        c.stream = s;
        int v = 90;
        void *args[] = {&d_out, &v};
        SHOW("on a stream", cudaLaunchKernelExC(&c, (const void *)fill, args));
        SHOW("stream sync", cudaStreamSynchronize(s));
        c.stream = cudaStreamPerThread;
        v = 91;
        SHOW("on the per-thread stream", cudaLaunchKernelExC(&c, (const void *)fill, args));
        SHOW("per-thread sync", cudaStreamSynchronize(cudaStreamPerThread));
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        SHOWI("per-thread h[1000]", h[1000]);
        c.stream = 0;
        v = 92;
        SHOW("_ptsz on stream 0", cudaLaunchKernelExC_ptsz(&c, (const void *)fill, args));
        SHOW("_ptsz per-thread sync", cudaStreamSynchronize(cudaStreamPerThread));
        OK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        SHOWI("_ptsz h[1000]", h[1000]);
        OK(cudaStreamDestroy(s));
    }

    /* Dynamic shared memory. */
    {
        cudaLaunchConfig_t c = config(1, 256, NULL, 0);
        c.dynamicSmemBytes = 256 * sizeof(int);
        void *args[] = {&d_out};
        SHOW("dynamic shared memory", cudaLaunchKernelExC(&c, (const void *)big_shared, args));
        OK(cudaMemcpy(h, d_out, 256 * sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(h[0] == 255 && h[255] == 0);
        c.dynamicSmemBytes = 100 << 10;
        SHOW("100 KiB dynamic shared memory, not allowed", cudaLaunchKernelExC(&c, (const void *)big_shared, args));
        SHOW_LAST("100 KiB");
        OK(cudaFuncSetAttribute((const void *)big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 << 10));
        SHOW("100 KiB dynamic shared memory, allowed", cudaLaunchKernelExC(&c, (const void *)big_shared, args));
        SHOW("100 KiB sync", cudaDeviceSynchronize());
        /* The size goes to the driver in 32 bits. */
        cudaLaunchConfig_t f = config(N / 128, 128, NULL, 0);
        f.dynamicSmemBytes = (size_t)1 << 32;
        int v = 95;
        void *fargs[] = {&d_out, &v};
        SHOW("fill with 2^32 bytes of dynamic shared memory", cudaLaunchKernelExC(&f, (const void *)fill, fargs));
        SHOW_LAST("2^32");
        SHOW("2^32 sync", cudaDeviceSynchronize());
        f.dynamicSmemBytes = ((size_t)1 << 32) + (200 << 10);
        SHOW("fill with 2^32 + 200 KiB of dynamic shared memory", cudaLaunchKernelExC(&f, (const void *)fill, fargs));
        SHOW_LAST("2^32 + 200 KiB");
        SHOW("2^32 + 200 KiB sync", cudaDeviceSynchronize());
    }

    /* Errors: functions, grid and block limits. */
    {
        cudaLaunchConfig_t c = config(N / 128, 128, NULL, 0);
        int v = 100;
        void *args[] = {&d_out, &v};
        SHOW("NULL function", cudaLaunchKernelExC(&c, NULL, args));
        SHOW_LAST("NULL function");
        SHOW("not a kernel", cudaLaunchKernelExC(&c, (const void *)main, args));
        SHOW_LAST("not a kernel");
        c = config(1, 2048, NULL, 0);
        SHOW("2048 threads", cudaLaunchKernelExC(&c, (const void *)fill, args));
        SHOW_LAST("2048 threads");
        c = config(0, 128, NULL, 0);
        SHOW("zero grid", cudaLaunchKernelExC(&c, (const void *)fill, args));
        SHOW_LAST("zero grid");
        c = config(1, 128, NULL, 0);
        c.blockDim.z = 65;
        c.blockDim.x = 1;
        SHOW("block z 65", cudaLaunchKernelExC(&c, (const void *)fill, args));
        SHOW_LAST("block z 65");
        c = config(1, 128, NULL, 0);
        c.gridDim.y = 65536;
        SHOW("grid y 65536", cudaLaunchKernelExC(&c, (const void *)fill, args));
        SHOW_LAST("grid y 65536");
        c = config(1, 0, NULL, 0);
        SHOW("zero block", cudaLaunchKernelExC(&c, (const void *)fill, args));
        SHOW_LAST("zero block");
        SHOW("after errors", cudaDeviceSynchronize());
        SHOW_LAST("end");
    }

    ct_free_device(d_out, d_buf, NULL);
    DONE();
}
