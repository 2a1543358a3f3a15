/* ctest: gpu2
 * Peer attributes and peer access between every ordered pair of the machine's devices:
 * cudaDeviceGetP2PAttribute for every attribute (and values that are none), a device with
 * itself, invalid devices; cudaDeviceCanAccessPeer; cudaDeviceEnablePeerAccess and
 * cudaDeviceDisablePeerAccess twice each, with flags, to the current device itself and to
 * devices that do not exist, with the last error after each; peer access asked for as the
 * first call of the process, and across a cudaDeviceReset of the peer. */
#include "ctest.h"

static const char *p2p_name(int a) {
    switch (a) {
    case 1: return "PerformanceRank";
    case 2: return "AccessSupported";
    case 3: return "NativeAtomicSupported";
    case 4: return "CudaArrayAccessSupported";
    case 5: return "OnlyPartialNativeAtomicSupported";
    default: return "not an attribute";
    }
}

static void p2p(int attr, int src, int dst) {
    int v = -77;
    cudaError_t e = cudaDeviceGetP2PAttribute(&v, (enum cudaDeviceP2PAttr)attr, src, dst);
    printf("P2P %d (%s) %d->%d: %s", attr, p2p_name(attr), src, dst, cudaGetErrorName(e));
    if (e == cudaSuccess)
        printf(" = %d\n", v);
    else
        printf(", value %s, last %s\n", v == -77 ? "untouched" : "written", cudaGetErrorName(cudaGetLastError()));
}

static void can(int dev, int peer) {
    int v = -77;
    cudaError_t e = cudaDeviceCanAccessPeer(&v, dev, peer);
    printf("cudaDeviceCanAccessPeer(%d, %d): %s", dev, peer, cudaGetErrorName(e));
    if (e == cudaSuccess)
        printf(" = %d\n", v);
    else
        printf(", value %s, last %s\n", v == -77 ? "untouched" : "written", cudaGetErrorName(cudaGetLastError()));
}

/* A call's result and the last error after it, which it clears (as SHOW_CLEARED, indented). */
#define CALL(label, call) show_cleared_indented((label), (call))
static void show_cleared_indented(const char *label, cudaError_t r) {
    printf("  %s: %s, last %s\n", label, cudaGetErrorName(r), cudaGetErrorName(cudaGetLastError()));
}

int main(void) {
    /* The first call of the process: peer access from device 0 to device 1, before any
     * context exists (the runtime makes both). */
    cudaError_t first = cudaDeviceEnablePeerAccess(1, 0);
    int n = ct_devices_or_skip();
    printf("first call, cudaDeviceEnablePeerAccess(1, 0): %s\n", cudaGetErrorName(first));
    SHOW_LAST("first call");
    int cur = -1;
    OK(cudaGetDevice(&cur));
    SHOWI("current device after it", cur);
    CALL("and again", cudaDeviceEnablePeerAccess(1, 0));
    CALL("cudaDeviceDisablePeerAccess(1)", cudaDeviceDisablePeerAccess(1));

    /* Attributes: 1..5 for every ordered pair; each device with itself; values that are no
     * attribute, invalid devices and a NULL value for one pair. */
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            for (int a = 1; a <= 5; a++) p2p(a, s, d);
    p2p(0, 0, 1);
    p2p(6, 0, 1);
    p2p(99, 0, 1);
    p2p(-1, 0, 1);
    p2p(1, -1, 1);
    p2p(1, 0, n);
    p2p(1, n, n);
    p2p(2, 1000, 0);
    printf("P2P NULL value: %s\n", cudaGetErrorName(cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, 1)));
    SHOW_LAST("P2P NULL value");
    printf("P2P NULL value, bad device: %s\n", cudaGetErrorName(cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, n)));
    SHOW_LAST("P2P NULL value, bad device");

#if CUDART_VERSION >= 13000
    /* Atomic capabilities of every ordered pair (the 13 API). */
    {
        enum cudaAtomicOperation ops[3] = {cudaAtomicOperationIntegerAdd, cudaAtomicOperationFloatAdd,
                                           cudaAtomicOperationCAS};
        for (int s = 0; s < n; s++)
            for (int d = 0; d < n; d++) {
                unsigned int caps[3] = {77, 77, 77};
                cudaError_t e = cudaDeviceGetP2PAtomicCapabilities(caps, ops, 3, s, d);
                printf("atomic capabilities %d->%d: %s", s, d, cudaGetErrorName(e));
                if (e == cudaSuccess)
                    printf(" = 0x%x 0x%x 0x%x\n", caps[0], caps[1], caps[2]);
                else
                    printf(", last %s\n", cudaGetErrorName(cudaGetLastError()));
            }
    }
#endif

    /* Who can access whom. */
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) can(s, d);
    can(-1, 0);
    can(0, -1);
    can(0, n);
    can(n, 0);
    printf("cudaDeviceCanAccessPeer(NULL, 0, 1): %s\n", cudaGetErrorName(cudaDeviceCanAccessPeer(NULL, 0, 1)));
    SHOW_LAST("NULL");
    printf("cudaDeviceCanAccessPeer(NULL, 0, n): %s\n", cudaGetErrorName(cudaDeviceCanAccessPeer(NULL, 0, n)));
    SHOW_LAST("NULL, bad device");

    /* Enabling and disabling, from every device to every other. */
    for (int s = 0; s < n; s++) {
        OK(cudaSetDevice(s));
        printf("current device %d:\n", s);
        CALL("enable self", cudaDeviceEnablePeerAccess(s, 0));
        CALL("disable self", cudaDeviceDisablePeerAccess(s));
        CALL("enable -1", cudaDeviceEnablePeerAccess(-1, 0));
        CALL("enable n", cudaDeviceEnablePeerAccess(n, 0));
        CALL("disable -1", cudaDeviceDisablePeerAccess(-1));
        CALL("disable n", cudaDeviceDisablePeerAccess(n));
        for (int d = 0; d < n; d++) {
            if (d == s) continue;
            char l[96];
            snprintf(l, sizeof l, "%d->%d disable before enable", s, d);
            CALL(l, cudaDeviceDisablePeerAccess(d));
            snprintf(l, sizeof l, "%d->%d enable flags 1", s, d);
            CALL(l, cudaDeviceEnablePeerAccess(d, 1));
            snprintf(l, sizeof l, "%d->%d enable", s, d);
            CALL(l, cudaDeviceEnablePeerAccess(d, 0));
            int v = -1;
            OK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, s, d));
            printf("  %d->%d AccessSupported while enabled = %d\n", s, d, v);
            snprintf(l, sizeof l, "%d->%d enable again", s, d);
            CALL(l, cudaDeviceEnablePeerAccess(d, 0));
            snprintf(l, sizeof l, "%d->%d enable again flags 1", s, d);
            CALL(l, cudaDeviceEnablePeerAccess(d, 1));
            snprintf(l, sizeof l, "%d->%d disable", s, d);
            CALL(l, cudaDeviceDisablePeerAccess(d));
            snprintf(l, sizeof l, "%d->%d disable again", s, d);
            CALL(l, cudaDeviceDisablePeerAccess(d));
        }
    }
    /* All at once from device 0, then each disabled. */
    OK(cudaSetDevice(0));
    for (int d = 1; d < n; d++) {
        char l[64];
        snprintf(l, sizeof l, "0->%d enable (all)", d);
        CALL(l, cudaDeviceEnablePeerAccess(d, 0));
    }
    for (int d = 1; d < n; d++) {
        char l[64];
        snprintf(l, sizeof l, "0->%d disable (all)", d);
        CALL(l, cudaDeviceDisablePeerAccess(d));
    }

    /* Peer access from device 0 to 1, then device 1 reset: what device 0 is told after. */
    printf("across a reset of the peer:\n");
    CALL("0->1 enable", cudaDeviceEnablePeerAccess(1, 0));
    OK(cudaSetDevice(1));
    CALL("cudaDeviceReset of device 1", cudaDeviceReset());
    OK(cudaSetDevice(0));
    CALL("0->1 disable after the reset", cudaDeviceDisablePeerAccess(1));
    CALL("0->1 enable after the reset", cudaDeviceEnablePeerAccess(1, 0));
    CALL("0->1 disable", cudaDeviceDisablePeerAccess(1));
    /* And device 0's own reset with access enabled. */
    CALL("0->1 enable", cudaDeviceEnablePeerAccess(1, 0));
    CALL("cudaDeviceReset of device 0", cudaDeviceReset());
    CALL("0->1 disable after the reset", cudaDeviceDisablePeerAccess(1));
    CALL("0->1 enable after the reset", cudaDeviceEnablePeerAccess(1, 0));
    CALL("0->1 disable", cudaDeviceDisablePeerAccess(1));
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
