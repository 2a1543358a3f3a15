/* Which driver entry points the GPU machine's libcuda.so.1 gives through cuGetProcAddress, at
 * the versions 13000 and 13050 and at each name's newest version: "name newest: found@13000
 * found@13050 found@newest" (1 found, 0 not; the query's status in brackets when not success). */
#include <dlfcn.h>
#include <stdio.h>
#include "probe_names.h"

typedef int (*gpa_t)(const char *, void **, int, unsigned long long, int *);
typedef int (*init_t)(unsigned);
typedef int (*ver_t)(int *);

int main(void) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) { printf("no libcuda.so.1\n"); return 1; }
    gpa_t gpa = (gpa_t)dlsym(h, "cuGetProcAddress_v2");
    init_t init = (init_t)dlsym(h, "cuInit");
    ver_t ver = (ver_t)dlsym(h, "cuDriverGetVersion");
    int v = 0;
    printf("cuInit %d\n", init(0));
    ver(&v);
    printf("driver version %d\n", v);
    int vers[3] = {13000, 13050, 0};
    for (unsigned i = 0; i < sizeof probe_names / sizeof *probe_names; i++) {
        vers[2] = probe_names[i].newest;
        printf("%s %d:", probe_names[i].name, probe_names[i].newest);
        for (int k = 0; k < 3; k++) {
            void *p = NULL;
            int st = -1, r = gpa(probe_names[i].name, &p, vers[k], 0, &st);
            printf(" %d", p != NULL);
            if (r != 0 || st != 0) printf("[r%d s%d]", r, st);
        }
        printf("\n");
    }
    return 0;
}
