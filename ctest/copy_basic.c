/* cudaMemcpy on linear memory: every kind, cudaMemcpyDefault with every pair of pageable
 * host, pinned host and device pointers, offsets, zero-byte copies, and the failures. */
#include "ctest.h"

#define N 256

static unsigned char pattern(int i, int seed) { return (unsigned char)(i * 7 + seed * 31 + 1); }

static void fill(unsigned char *p, int n, int seed) {
    for (int i = 0; i < n; i++) p[i] = pattern(i, seed);
}

static int same(const unsigned char *p, int n, int seed) {
    for (int i = 0; i < n; i++)
        if (p[i] != pattern(i, seed)) return 0;
    return 1;
}

/* Kind names for the Default matrix. */
static const char *where_name[3] = {"pageable", "pinned", "device"};

int main(void) {
    unsigned char *h = (unsigned char *)malloc(N), *h2 = (unsigned char *)malloc(N);
    unsigned char *pin = NULL, *pin2 = NULL, *d = NULL, *d2 = NULL;
    OK(SHOW("cudaMalloc d", cudaMalloc((void **)&d, N)));
    OK(SHOW("cudaMalloc d2", cudaMalloc((void **)&d2, N)));
    OK(SHOW("cudaMallocHost pin", cudaMallocHost((void **)&pin, N)));
    OK(SHOW("cudaMallocHost pin2", cudaMallocHost((void **)&pin2, N)));
    if (!d || !d2 || !pin || !pin2) DONE();

    /* Explicit kinds: H2D, D2D, D2H, H2H. */
    fill(h, N, 1);
    memset(h2, 0, N);
    SHOW("H2D", cudaMemcpy(d, h, N, cudaMemcpyHostToDevice));
    SHOW("D2D", cudaMemcpy(d2, d, N, cudaMemcpyDeviceToDevice));
    SHOW("D2H", cudaMemcpy(h2, d2, N, cudaMemcpyDeviceToHost));
    CHECK(same(h2, N, 1));
    printf("H2D/D2D/D2H round trip: %s\n", same(h2, N, 1) ? "same" : "different");
    fill(h, N, 2);
    SHOW("H2H", cudaMemcpy(h2, h, N, cudaMemcpyHostToHost));
    CHECK(same(h2, N, 2));
    printf("H2H: %s\n", same(h2, N, 2) ? "same" : "different");

    /* Pinned host memory with explicit kinds. */
    fill(pin, N, 3);
    SHOW("H2D pinned", cudaMemcpy(d, pin, N, cudaMemcpyHostToDevice));
    memset(pin2, 0, N);
    SHOW("D2H pinned", cudaMemcpy(pin2, d, N, cudaMemcpyDeviceToHost));
    CHECK(same(pin2, N, 3));

    /* Offsets inside the allocations: bytes [16, 16+64) of d from h[100..]. */
    fill(h, N, 4);
    SHOW("H2D at offsets", cudaMemcpy(d + 16, h + 100, 64, cudaMemcpyHostToDevice));
    memset(h2, 0xee, N);
    SHOW("D2H at offsets", cudaMemcpy(h2 + 3, d + 16, 64, cudaMemcpyDeviceToHost));
    {
        int ok = 1;
        for (int i = 0; i < 64; i++) ok &= h2[3 + i] == pattern(100 + i, 4);
        ok &= h2[0] == 0xee && h2[1] == 0xee && h2[2] == 0xee && h2[67] == 0xee;
        CHECK(ok);
        printf("offset copy: %s\n", ok ? "ok" : "wrong");
    }
    /* A single byte and an odd count. */
    unsigned char one = 0x5a, back = 0;
    SHOW("H2D 1 byte", cudaMemcpy(d + 255, &one, 1, cudaMemcpyHostToDevice));
    SHOW("D2H 1 byte", cudaMemcpy(&back, d + 255, 1, cudaMemcpyDeviceToHost));
    CHECK(back == 0x5a);
    SHOWU("byte back", back);

    /* cudaMemcpyDefault: every pair of pageable host, pinned host and device. */
    for (int s = 0; s < 3; s++) {
        for (int t = 0; t < 3; t++) {
            unsigned char *src = s == 0 ? h : s == 1 ? pin : d;
            unsigned char *dst = t == 0 ? h2 : t == 1 ? pin2 : d2;
            int seed = 10 + s * 3 + t;
            /* Put the pattern into src. */
            fill(h, N, seed);
            if (s == 1) memcpy(pin, h, N);
            if (s == 2) OK(cudaMemcpy(d, h, N, cudaMemcpyHostToDevice));
            char label[64];
            snprintf(label, sizeof label, "Default %s->%s", where_name[s], where_name[t]);
            SHOW(label, cudaMemcpy(dst, src, N, cudaMemcpyDefault));
            /* Read dst back. */
            unsigned char got[N];
            memset(got, 0, N);
            if (t == 2)
                OK(cudaMemcpy(got, d2, N, cudaMemcpyDeviceToHost));
            else
                memcpy(got, dst, N);
            int ok = same(got, N, seed);
            CHECK(ok);
            printf("%s data: %s\n", label, ok ? "same" : "different");
        }
    }

    /* Zero bytes: nothing to do, whatever the pointers. */
    SHOW("0 bytes H2D", cudaMemcpy(d, h, 0, cudaMemcpyHostToDevice));
    SHOW("0 bytes NULL,NULL H2D", cudaMemcpy(NULL, NULL, 0, cudaMemcpyHostToDevice));
    SHOW("0 bytes NULL,NULL Default", cudaMemcpy(NULL, NULL, 0, cudaMemcpyDefault));
    SHOW("0 bytes NULL,NULL D2D", cudaMemcpy(NULL, NULL, 0, cudaMemcpyDeviceToDevice));
    SHOW("0 bytes kind 5", cudaMemcpy(d, h, 0, (enum cudaMemcpyKind)5));
    SHOW_LAST("0 bytes kind 5");

    /* Invalid kinds. */
    SHOW("kind 5", cudaMemcpy(d, h, N, (enum cudaMemcpyKind)5));
    SHOW_LAST("kind 5");
    SHOW("kind -1", cudaMemcpy(d, h, N, (enum cudaMemcpyKind)-1));
    SHOW_LAST("kind -1");
    SHOW("kind 1000", cudaMemcpy(h2, h, N, (enum cudaMemcpyKind)1000));
    SHOW_LAST("kind 1000");

    /* Null pointers with a count. */
    SHOW("H2D NULL dst", cudaMemcpy(NULL, h, N, cudaMemcpyHostToDevice));
    SHOW_LAST("H2D NULL dst");
    SHOW("H2D NULL src", cudaMemcpy(d, NULL, N, cudaMemcpyHostToDevice));
    SHOW_LAST("H2D NULL src");
    SHOW("D2H NULL dst", cudaMemcpy(NULL, d, N, cudaMemcpyDeviceToHost));
    SHOW_LAST("D2H NULL dst");
    SHOW("D2H NULL src", cudaMemcpy(h2, NULL, N, cudaMemcpyDeviceToHost));
    SHOW_LAST("D2H NULL src");
    SHOW("D2D NULL src", cudaMemcpy(d2, NULL, N, cudaMemcpyDeviceToDevice));
    SHOW_LAST("D2D NULL src");
    SHOW("Default NULL dst", cudaMemcpy(NULL, d, N, cudaMemcpyDefault));
    SHOW_LAST("Default NULL dst");

    /* The runtime still works after the failures. */
    fill(h, N, 40);
    SHOW("H2D after failures", cudaMemcpy(d, h, N, cudaMemcpyHostToDevice));
    memset(h2, 0, N);
    SHOW("D2H after failures", cudaMemcpy(h2, d, N, cudaMemcpyDeviceToHost));
    CHECK(same(h2, N, 40));

    /* A freed device pointer. */
    OK(SHOW("cudaFree d2", cudaFree(d2)));
    SHOW("H2D freed dst", cudaMemcpy(d2, h, N, cudaMemcpyHostToDevice));
    SHOW_LAST("H2D freed dst");
    SHOW("D2H freed src", cudaMemcpy(h2, d2, N, cudaMemcpyDeviceToHost));
    SHOW_LAST("D2H freed src");
    SHOW("D2D freed src", cudaMemcpy(d, d2, N, cudaMemcpyDeviceToDevice));
    SHOW_LAST("D2D freed src");
    SHOW("cudaGetLastError", cudaGetLastError());

    OK(cudaFree(d));
    ct_free_host(pin, pin2, NULL);
    free(h);
    free(h2);
    DONE();
}
