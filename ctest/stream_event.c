/* Streams and events: creation flags, queries, special handles, timing, errors. */
#include "ctest.h"

int main(void) {
    cudaStream_t s = NULL, nb = NULL, pr = NULL;
    OK(SHOW("cudaStreamCreate", cudaStreamCreate(&s)));
    CHECK(s != NULL);
    SHOW("cudaStreamCreate(NULL)", cudaStreamCreate(NULL));
    SHOW_LAST("after NULL stream create");
    OK(SHOW("cudaStreamCreateWithFlags(NonBlocking)", cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking)));
    SHOW("cudaStreamCreateWithFlags(0x10)", cudaStreamCreateWithFlags(&pr, 0x10));
    OK(SHOW("cudaStreamCreateWithPriority(-1)", cudaStreamCreateWithPriority(&pr, cudaStreamDefault, -1)));
    OK(SHOW("cudaStreamCreateWithPriority(-100)", cudaStreamCreateWithPriority(&pr, cudaStreamDefault, -100)));

    unsigned int fl = 99;
    OK(SHOW("cudaStreamGetFlags(s)", cudaStreamGetFlags(s, &fl)));
    SHOWU("flags s", fl);
    OK(SHOW("cudaStreamGetFlags(nb)", cudaStreamGetFlags(nb, &fl)));
    SHOWU("flags nb", fl);
    int p = 99;
    OK(SHOW("cudaStreamGetPriority(pr)", cudaStreamGetPriority(pr, &p)));
    SHOWI("priority of pr (asked -100)", p);
    SHOW("cudaStreamGetPriority(0)", cudaStreamGetPriority(0, &p));
    SHOWI("priority of stream 0", p);
    SHOW("cudaStreamGetFlags(NULL out)", cudaStreamGetFlags(s, NULL));

    SHOW("cudaStreamQuery(s)", cudaStreamQuery(s));
    SHOW("cudaStreamQuery(0)", cudaStreamQuery(0));
    SHOW("cudaStreamQuery(Legacy)", cudaStreamQuery(cudaStreamLegacy));
    SHOW("cudaStreamQuery(PerThread)", cudaStreamQuery(cudaStreamPerThread));
    OK(SHOW("cudaStreamSynchronize(s)", cudaStreamSynchronize(s)));
    OK(SHOW("cudaStreamSynchronize(0)", cudaStreamSynchronize(0)));
    OK(SHOW("cudaStreamSynchronize(Legacy)", cudaStreamSynchronize(cudaStreamLegacy)));
    OK(SHOW("cudaStreamSynchronize(PerThread)", cudaStreamSynchronize(cudaStreamPerThread)));

    cudaEvent_t a = NULL, b = NULL, nt = NULL;
    OK(SHOW("cudaEventCreate", cudaEventCreate(&a)));
    OK(SHOW("cudaEventCreateWithFlags(BlockingSync)", cudaEventCreateWithFlags(&b, cudaEventBlockingSync)));
    OK(SHOW("cudaEventCreateWithFlags(DisableTiming)", cudaEventCreateWithFlags(&nt, cudaEventDisableTiming)));
    cudaEvent_t bad = NULL;
    SHOW("cudaEventCreateWithFlags(Interprocess alone)", cudaEventCreateWithFlags(&bad, cudaEventInterprocess));
    SHOW("cudaEventCreateWithFlags(0x40)", cudaEventCreateWithFlags(&bad, 0x40));
    SHOW("cudaEventCreate(NULL)", cudaEventCreate(NULL));
    SHOW_LAST("after bad event creates");

    float ms = -1.0f;
    SHOW("cudaEventQuery(unrecorded)", cudaEventQuery(a));
    SHOW("cudaEventElapsedTime(unrecorded)", cudaEventElapsedTime(&ms, a, b));
    SHOW_LAST("after elapsed on unrecorded");
    OK(SHOW("cudaEventRecord(a, s)", cudaEventRecord(a, s)));
    OK(SHOW("cudaEventRecord(b, s)", cudaEventRecord(b, s)));
    OK(SHOW("cudaEventRecord(nt, 0)", cudaEventRecord(nt, 0)));
    OK(SHOW("cudaEventSynchronize(b)", cudaEventSynchronize(b)));
    SHOW("cudaEventQuery(b)", cudaEventQuery(b));
    OK(SHOW("cudaEventElapsedTime", cudaEventElapsedTime(&ms, a, b)));
    CHECK(ms >= 0.0f);
    SHOW("cudaEventElapsedTime(NULL ms)", cudaEventElapsedTime(NULL, a, b));
    SHOW("cudaEventElapsedTime(timing disabled)", cudaEventElapsedTime(&ms, a, nt));
    SHOW_LAST("after elapsed errors");
    OK(SHOW("cudaStreamWaitEvent(nb, b)", cudaStreamWaitEvent(nb, b, 0)));
    OK(SHOW("cudaStreamSynchronize(nb)", cudaStreamSynchronize(nb)));

    OK(SHOW("cudaEventDestroy(a)", cudaEventDestroy(a)));
    OK(SHOW("cudaEventDestroy(b)", cudaEventDestroy(b)));
    OK(SHOW("cudaEventDestroy(nt)", cudaEventDestroy(nt)));
    SHOW("cudaEventDestroy(NULL)", cudaEventDestroy(NULL));

    OK(SHOW("cudaStreamDestroy(s)", cudaStreamDestroy(s)));
    OK(SHOW("cudaStreamDestroy(nb)", cudaStreamDestroy(nb)));
    OK(SHOW("cudaStreamDestroy(pr)", cudaStreamDestroy(pr)));
    SHOW("cudaStreamDestroy(0)", cudaStreamDestroy(0));
    SHOW("cudaStreamDestroy(Legacy)", cudaStreamDestroy(cudaStreamLegacy));
    SHOW("cudaStreamDestroy(PerThread)", cudaStreamDestroy(cudaStreamPerThread));
    SHOW_LAST("after destroying special streams");
    DONE();
}
