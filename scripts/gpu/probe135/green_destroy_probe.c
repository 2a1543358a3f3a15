/* What the driver answers for a green context's stream once the green context is destroyed:
 * (a) the stream left alone, (b) the stream destroyed first, (c) the stream destroyed after,
 * each in a fresh process (one driver call sequence each; NVIDIA's runtime is not loaded).
 * Prints the driver's result codes. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void scenario(char which) {
    CUdevice dev;
    cuInit(0);
    cuDeviceGet(&dev, 0);
    CUdevResource all, groups[2], rem;
    memset(&all, 0, sizeof all);
    memset(&rem, 0, sizeof rem);
    unsigned n = 2;
    int r = cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM);
    r |= cuDevSmResourceSplitByCount(groups, &n, &all, &rem, 0, 8);
    CUdevResourceDesc desc;
    r |= cuDevResourceGenerateDesc(&desc, &groups[0], 1);
    CUgreenCtx g;
    r |= cuGreenCtxCreate(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM);
    CUcontext c;
    r |= cuCtxFromGreenCtx(&c, g);
    CUstream s;
    r |= cuGreenCtxStreamCreate(&s, g, CU_STREAM_NON_BLOCKING, 0);
    if (r) {
        printf("(%c) setup failed %d\n", which, r);
        return;
    }
    CUcontext cur = (CUcontext)1;
    cuCtxGetCurrent(&cur);
    printf("(%c) current before: %s\n", which, cur == NULL ? "none" : cur == c ? "the green one" : "another");
    if (which == 'b') printf("(%c) cuStreamDestroy first: %d\n", which, cuStreamDestroy(s));
    printf("(%c) cuGreenCtxDestroy: %d\n", which, cuGreenCtxDestroy(g));
    if (which == 'c') printf("(%c) cuStreamDestroy after: %d\n", which, cuStreamDestroy(s));
    cur = (CUcontext)1;
    cuCtxGetCurrent(&cur);
    printf("(%c) current after: %s\n", which, cur == NULL ? "none" : cur == c ? "the green one" : "another");
    printf("(%c) cuStreamQuery: %d\n", which, cuStreamQuery(s));
    printf("(%c) cuStreamSynchronize: %d\n", which, cuStreamSynchronize(s));
    CUcontext sc = NULL;
    CUgreenCtx sg = NULL;
    printf("(%c) cuStreamGetCtx_v2: %d\n", which, cuStreamGetCtx_v2(s, &sc, &sg));
    CUcontext prim;
    printf("(%c) primary retain: %d\n", which, cuDevicePrimaryCtxRetain(&prim, dev));
    cuCtxSetCurrent(prim);
    printf("(%c) with the primary current: cuStreamQuery %d\n", which, cuStreamQuery(s));
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc > 1) {
        scenario(argv[1][0]);
        return 0;
    }
    const char *w[] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            execl("/proc/self/exe", argv[0], w[i], (char *)NULL);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        printf("(%s) exit status %d\n", w[i], st);
    }
    return 0;
}
