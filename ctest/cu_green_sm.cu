/* ctest: gpu cu abi13 */
/* Green contexts partition the SMs: the device's SM resource is split into two groups, a green
 * context is made from each, and a kernel that records the SM (%smid) each block ran on is
 * launched on a stream of each (<<<>>> on one, cudaLaunchKernel on the other, both at once).
 * Every block of a green context must run on at most as many SMs as its group has, and the two
 * contexts' SMs must not overlap. Prints the partition sizes and the checks' results, never SM
 * ids. */
#include "ctest.h"

#define MAX_SM 1024

__global__ void record_smid(unsigned *out, long long spin) {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    long long t0 = clock64();
    while (clock64() - t0 < spin) {
    }
    if (threadIdx.x == 0) out[blockIdx.x] = id;
}

/* The set of SMs a launch's blocks ran on, as flags; returns how many. */
static int sm_set(const unsigned *ids, int blocks, unsigned char *set) {
    memset(set, 0, MAX_SM);
    int n = 0;
    for (int i = 0; i < blocks; i++) {
        if (ids[i] >= MAX_SM) return -1;
        if (!set[ids[i]]) n++;
        set[ids[i]] = 1;
    }
    return n;
}

int main(void) {
    int sms = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDevResource dev;
    memset(&dev, 0, sizeof dev);
    OK(cudaDeviceGetDevResource(0, &dev, cudaDevResourceTypeSm));
    SHOWI("device SMs match the attribute", (int)dev.sm.smCount == sms);
    unsigned align = dev.sm.smCoscheduledAlignment ? dev.sm.smCoscheduledAlignment : 1;
    unsigned min = (dev.sm.smCount / 2) / align * align;
    SHOWU("asked minimum per group", min);

    cudaDevResource groups[2], rem;
    memset(groups, 0, sizeof groups);
    memset(&rem, 0, sizeof rem);
    unsigned n = 2;
    OK(cudaDevSmResourceSplitByCount(groups, &n, &dev, &rem, 0, min));
    SHOWU("groups made", n);
    SHOWU("group A SMs", groups[0].sm.smCount);
    SHOWU("group B SMs", groups[1].sm.smCount);
    SHOWU("remaining SMs", rem.sm.smCount);
    CHECK(n == 2);

    cudaDevResourceDesc_t da = NULL, db = NULL;
    OK(cudaDevResourceGenerateDesc(&da, &groups[0], 1));
    OK(cudaDevResourceGenerateDesc(&db, &groups[1], 1));
    cudaExecutionContext_t ga = NULL, gb = NULL;
    OK(cudaGreenCtxCreate(&ga, da, 0, 0));
    OK(cudaGreenCtxCreate(&gb, db, 0, 0));
    cudaStream_t sa = NULL, sb = NULL;
    OK(cudaExecutionCtxStreamCreate(&sa, ga, cudaStreamNonBlocking, 0));
    OK(cudaExecutionCtxStreamCreate(&sb, gb, cudaStreamNonBlocking, 0));
    cudaDevResource r;
    memset(&r, 0, sizeof r);
    OK(cudaStreamGetDevResource(sa, &r, cudaDevResourceTypeSm));
    SHOWU("stream A SMs", r.sm.smCount);
    OK(cudaStreamGetDevResource(sb, &r, cudaDevResourceTypeSm));
    SHOWU("stream B SMs", r.sm.smCount);

    const int blocks = 4 * sms;
    const long long spin = 200000;
    unsigned *da_ids = NULL, *db_ids = NULL, *dw_ids = NULL;
    OK(cudaMalloc((void **)&da_ids, blocks * sizeof(unsigned)));
    OK(cudaMalloc((void **)&db_ids, blocks * sizeof(unsigned)));
    OK(cudaMalloc((void **)&dw_ids, blocks * sizeof(unsigned)));
    unsigned *ha = (unsigned *)malloc(blocks * sizeof(unsigned));
    unsigned *hb = (unsigned *)malloc(blocks * sizeof(unsigned));
    unsigned *hw = (unsigned *)malloc(blocks * sizeof(unsigned));
    static unsigned char set_a[MAX_SM], set_b[MAX_SM], set_w[MAX_SM];

    for (int round = 0; round < 3; round++) {
        OK(cudaMemsetAsync(da_ids, 0xff, blocks * sizeof(unsigned), sa));
        OK(cudaMemsetAsync(db_ids, 0xff, blocks * sizeof(unsigned), sb));
        record_smid<<<blocks, 128, 0, sa>>>(da_ids, spin);
        SHOW("launch on green stream A", cudaGetLastError());
        void *args[] = {&db_ids, (void *)&spin};
        SHOW("cudaLaunchKernel on green stream B",
             cudaLaunchKernel((const void *)record_smid, dim3(blocks), dim3(128), args, 0, sb));
        SHOW("sync A", cudaStreamSynchronize(sa));
        SHOW("sync B", cudaExecutionCtxSynchronize(gb));
        OK(cudaMemcpy(ha, da_ids, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
        OK(cudaMemcpy(hb, db_ids, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
        int na = sm_set(ha, blocks, set_a), nb = sm_set(hb, blocks, set_b);
        int overlap = 0;
        for (int i = 0; i < MAX_SM; i++) overlap += set_a[i] && set_b[i];
        int a_in = na > 0 && na <= (int)groups[0].sm.smCount;
        int b_in = nb > 0 && nb <= (int)groups[1].sm.smCount;
        printf("round %d: A's blocks within A's %u SMs: %d, B's within B's %u SMs: %d, A and B disjoint: %d\n",
               round, groups[0].sm.smCount, a_in, groups[1].sm.smCount, b_in, overlap == 0);
        CHECK(a_in && b_in && overlap == 0);
    }

    /* The whole device, from a plain stream: more SMs than either partition. */
    cudaStream_t plain = NULL;
    OK(cudaStreamCreate(&plain));
    record_smid<<<blocks, 128, 0, plain>>>(dw_ids, spin);
    SHOW("launch on plain stream", cudaGetLastError());
    OK(cudaStreamSynchronize(plain));
    OK(cudaMemcpy(hw, dw_ids, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int nw = sm_set(hw, blocks, set_w);
    SHOWI("plain stream used more SMs than group A", nw > (int)groups[0].sm.smCount);
    SHOWI("plain stream within the device", nw > 0 && nw <= sms);

    /* The legacy stream after green contexts exist: still the whole device. */
    record_smid<<<blocks, 128>>>(dw_ids, spin);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(hw, dw_ids, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    nw = sm_set(hw, blocks, set_w);
    SHOWI("legacy stream used more SMs than group A", nw > (int)groups[0].sm.smCount);

    ct_destroy_streams(sa, sb, plain, NULL);
    OK(cudaExecutionCtxDestroy(ga));
    OK(cudaExecutionCtxDestroy(gb));
    ct_free_device(da_ids, db_ids, dw_ids, NULL);
    free(ha);
    free(hb);
    free(hw);
    DONE();
}
