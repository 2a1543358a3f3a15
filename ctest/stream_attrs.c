/* Stream attributes: get, set and copy of every attribute id with valid and invalid values,
 * on created, legacy, null and per-thread streams, and through the _ptsz exports. Only the
 * attribute's own member of the value union is read or written: the rest of the union keeps
 * the test's fill pattern. */
#include "ctest.h"

cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t s, cudaStreamAttrID attr, cudaStreamAttrValue *value);
cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t s, cudaStreamAttrID attr, const cudaStreamAttrValue *value);
cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);

#define FILL 0xab

/* Every id up to 17: the five stream attributes are 1, 3, 8, 9 and 10. */
#define MAX_ID 17

static void fill(cudaStreamAttrValue *v) { memset(v, FILL, sizeof *v); }

/* The first byte after the attribute's member that still holds the fill pattern. */
static int untouched_from(const cudaStreamAttrValue *v) {
    const unsigned char *b = (const unsigned char *)v;
    int n = (int)sizeof *v;
    while (n > 0 && b[n - 1] == FILL) n--;
    return n;
}

static void print_value(const char *what, int id, const cudaStreamAttrValue *v, const void *base) {
    char label[160];
    switch (id) {
    case cudaLaunchAttributeAccessPolicyWindow:
        printf("%s window: base %s, num_bytes %zu, hitRatio %.3f, hitProp %d, missProp %d\n", what,
               v->accessPolicyWindow.base_ptr == NULL ? "NULL" : v->accessPolicyWindow.base_ptr == base ? "as set" : "other",
               v->accessPolicyWindow.num_bytes, v->accessPolicyWindow.hitRatio, (int)v->accessPolicyWindow.hitProp,
               (int)v->accessPolicyWindow.missProp);
        break;
    case cudaLaunchAttributeSynchronizationPolicy:
        snprintf(label, sizeof label, "%s syncPolicy", what);
        SHOWI(label, v->syncPolicy);
        break;
    case cudaLaunchAttributePriority:
        snprintf(label, sizeof label, "%s priority", what);
        SHOWI(label, v->priority);
        break;
    case cudaLaunchAttributeMemSyncDomainMap:
        printf("%s memSyncDomainMap: default %d, remote %d\n", what, v->memSyncDomainMap.default_,
               v->memSyncDomainMap.remote);
        break;
    case cudaLaunchAttributeMemSyncDomain:
        snprintf(label, sizeof label, "%s memSyncDomain", what);
        SHOWI(label, v->memSyncDomain);
        break;
    }
    snprintf(label, sizeof label, "%s bytes written", what);
    SHOWI(label, untouched_from(v));
}

static void get_all(const char *name, cudaStream_t s, const void *base) {
    char label[160];
    for (int id = 0; id <= MAX_ID; id++) {
        cudaStreamAttrValue v;
        fill(&v);
        snprintf(label, sizeof label, "get %s id %d", name, id);
        cudaError_t e = SHOW(label, cudaStreamGetAttribute(s, (cudaStreamAttrID)id, &v));
        if (e == cudaSuccess) {
            print_value(label, id, &v, base);
        } else {
            SHOWI("  untouched", untouched_from(&v) == 0);
            SHOW_LAST(label);
        }
    }
}

static cudaError_t set_int(cudaStream_t s, int id, int value) {
    cudaStreamAttrValue v;
    fill(&v);
    v.priority = value; /* every int member sits at offset 0 */
    return cudaStreamSetAttribute(s, (cudaStreamAttrID)id, &v);
}

static int get_int(cudaStream_t s, int id) {
    cudaStreamAttrValue v;
    fill(&v);
    cudaError_t e = cudaStreamGetAttribute(s, (cudaStreamAttrID)id, &v);
    return e == cudaSuccess ? v.priority : -1000 - (int)e;
}

int main(void) {
    int least = 0, greatest = 0;
    OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    SHOWI("least priority", least);
    SHOWI("greatest priority", greatest);

    cudaStream_t s = NULL, hi = NULL, copy = NULL, nb = NULL;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreateWithPriority(&hi, cudaStreamDefault, greatest));
    OK(cudaStreamCreate(&copy));
    OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    void *base = NULL;
    OK(cudaMalloc(&base, 4 << 20));

    /* A fresh stream's attributes, every id. */
    get_all("fresh", s, base);
    get_all("high priority", hi, base);

    /* Sets, each read back. */
    char label[160];
    cudaStreamAttrValue v;
    fill(&v);
    v.accessPolicyWindow.base_ptr = base;
    v.accessPolicyWindow.num_bytes = 1 << 20;
    v.accessPolicyWindow.hitRatio = 0.6f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    SHOW("set window", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    fill(&v);
    SHOW("get window", cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    print_value("after set", cudaLaunchAttributeAccessPolicyWindow, &v, base);

    /* Invalid windows. */
    cudaStreamAttrValue w;
    fill(&w);
    w.accessPolicyWindow.base_ptr = base;
    w.accessPolicyWindow.num_bytes = 1 << 20;
    w.accessPolicyWindow.hitRatio = 1.5f;
    w.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
    w.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    SHOW("set window hitRatio 1.5", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &w));
    SHOW_LAST("window hitRatio 1.5");
    w.accessPolicyWindow.hitRatio = 0.5f;
    w.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
    SHOW("set window missProp persisting", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &w));
    SHOW_LAST("window missProp persisting");
    w.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    w.accessPolicyWindow.hitProp = (enum cudaAccessProperty)7;
    SHOW("set window hitProp 7", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &w));
    SHOW_LAST("window hitProp 7");
    w.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
    w.accessPolicyWindow.num_bytes = (size_t)1 << 40;
    SHOW("set window of 1 TiB", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &w));
    SHOW_LAST("window of 1 TiB");
    fill(&v);
    OK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    print_value("after invalid windows", cudaLaunchAttributeAccessPolicyWindow, &v, base);

    SHOW("set syncPolicy Spin", set_int(s, cudaLaunchAttributeSynchronizationPolicy, cudaSyncPolicySpin));
    SHOWI("syncPolicy", get_int(s, cudaLaunchAttributeSynchronizationPolicy));
    SHOW("set syncPolicy BlockingSync", set_int(s, cudaLaunchAttributeSynchronizationPolicy, cudaSyncPolicyBlockingSync));
    SHOWI("syncPolicy", get_int(s, cudaLaunchAttributeSynchronizationPolicy));
    SHOW("set syncPolicy 0", set_int(s, cudaLaunchAttributeSynchronizationPolicy, 0));
    SHOW_LAST("syncPolicy 0");
    SHOW("set syncPolicy 9", set_int(s, cudaLaunchAttributeSynchronizationPolicy, 9));
    SHOW_LAST("syncPolicy 9");
    SHOWI("syncPolicy after invalid", get_int(s, cudaLaunchAttributeSynchronizationPolicy));

    SHOW("set priority greatest", set_int(s, cudaLaunchAttributePriority, greatest));
    SHOWI("priority", get_int(s, cudaLaunchAttributePriority));
    int p = 99;
    OK(cudaStreamGetPriority(s, &p));
    SHOWI("cudaStreamGetPriority after set", p);
    SHOW("set priority 100", set_int(s, cudaLaunchAttributePriority, 100));
    SHOW_LAST("priority 100");
    SHOWI("priority after 100", get_int(s, cudaLaunchAttributePriority));
    SHOW("set priority -100", set_int(s, cudaLaunchAttributePriority, -100));
    SHOW_LAST("priority -100");
    SHOWI("priority after -100", get_int(s, cudaLaunchAttributePriority));

    fill(&v);
    v.memSyncDomainMap.default_ = 2;
    v.memSyncDomainMap.remote = 3;
    SHOW("set memSyncDomainMap {2, 3}", cudaStreamSetAttribute(s, cudaStreamAttributeMemSyncDomainMap, &v));
    fill(&v);
    OK(cudaStreamGetAttribute(s, cudaStreamAttributeMemSyncDomainMap, &v));
    print_value("after set", cudaLaunchAttributeMemSyncDomainMap, &v, base);
    fill(&v);
    v.memSyncDomainMap.default_ = 9;
    v.memSyncDomainMap.remote = 0;
    SHOW("set memSyncDomainMap {9, 0}", cudaStreamSetAttribute(s, cudaStreamAttributeMemSyncDomainMap, &v));
    SHOW_LAST("memSyncDomainMap {9, 0}");
    fill(&v);
    OK(cudaStreamGetAttribute(s, cudaStreamAttributeMemSyncDomainMap, &v));
    print_value("after invalid map", cudaLaunchAttributeMemSyncDomainMap, &v, base);

    SHOW("set memSyncDomain Remote", set_int(s, cudaLaunchAttributeMemSyncDomain, cudaLaunchMemSyncDomainRemote));
    SHOWI("memSyncDomain", get_int(s, cudaLaunchAttributeMemSyncDomain));
    SHOW("set memSyncDomain 7", set_int(s, cudaLaunchAttributeMemSyncDomain, 7));
    SHOW_LAST("memSyncDomain 7");
    SHOWI("memSyncDomain after invalid", get_int(s, cudaLaunchAttributeMemSyncDomain));

    /* Ids that are not stream attributes, with a value and with none. */
    for (int id = 0; id <= MAX_ID; id++) {
        if (id == 1 || id == 3 || id == 8 || id == 9 || id == 10) continue;
        fill(&v);
        v.cooperative = 1;
        snprintf(label, sizeof label, "set id %d", id);
        SHOW(label, cudaStreamSetAttribute(nb, (cudaStreamAttrID)id, &v));
        SHOW_LAST(label);
    }
    SHOW("set id 99, NULL value", cudaStreamSetAttribute(nb, (cudaStreamAttrID)99, NULL));
    SHOW("set id -1, NULL value", cudaStreamSetAttribute(nb, (cudaStreamAttrID)-1, NULL));
    SHOW_LAST("set id -1");

    /* Copies: every attribute of s to copy. */
    SHOW("cudaStreamCopyAttributes(copy, s)", cudaStreamCopyAttributes(copy, s));
    get_all("copy of s", copy, base);
    OK(cudaStreamGetPriority(copy, &p));
    SHOWI("cudaStreamGetPriority of copy", p);
    SHOW("cudaStreamCopyAttributes(s, s)", cudaStreamCopyAttributes(s, s));
    SHOW("cudaStreamCopyAttributes(copy, hi)", cudaStreamCopyAttributes(copy, hi));
    SHOWI("priority of copy of hi", get_int(copy, cudaLaunchAttributePriority));
    SHOWI("syncPolicy of copy of hi", get_int(copy, cudaLaunchAttributeSynchronizationPolicy));

    /* The legacy and null streams. */
    get_all("null stream", 0, base);
    get_all("legacy stream", cudaStreamLegacy, base);
    SHOW("set syncPolicy Yield on the null stream", set_int(0, cudaLaunchAttributeSynchronizationPolicy, cudaSyncPolicyYield));
    SHOW_LAST("syncPolicy on the null stream");
    SHOWI("null stream syncPolicy", get_int(0, cudaLaunchAttributeSynchronizationPolicy));
    SHOWI("legacy stream syncPolicy", get_int(cudaStreamLegacy, cudaLaunchAttributeSynchronizationPolicy));
    SHOW("set memSyncDomain Remote on the legacy stream",
         set_int(cudaStreamLegacy, cudaLaunchAttributeMemSyncDomain, cudaLaunchMemSyncDomainRemote));
    SHOWI("null stream memSyncDomain", get_int(0, cudaLaunchAttributeMemSyncDomain));
    SHOW("cudaStreamCopyAttributes(nb, null stream)", cudaStreamCopyAttributes(nb, 0));
    SHOWI("syncPolicy of copy of the null stream", get_int(nb, cudaLaunchAttributeSynchronizationPolicy));
    SHOW("cudaStreamCopyAttributes(null stream, s)", cudaStreamCopyAttributes(0, s));
    SHOW_LAST("copy to the null stream");

    /* The per-thread stream, by handle and as the _ptsz exports' null stream. */
    get_all("per-thread stream", cudaStreamPerThread, base);
    SHOW("set syncPolicy Spin on the per-thread stream",
         set_int(cudaStreamPerThread, cudaLaunchAttributeSynchronizationPolicy, cudaSyncPolicySpin));
    SHOWI("per-thread syncPolicy", get_int(cudaStreamPerThread, cudaLaunchAttributeSynchronizationPolicy));
    fill(&v);
    SHOW("_ptsz get syncPolicy of stream 0", cudaStreamGetAttribute_ptsz(0, cudaStreamAttributeSynchronizationPolicy, &v));
    SHOWI("_ptsz syncPolicy of stream 0", v.syncPolicy);
    fill(&v);
    v.memSyncDomain = cudaLaunchMemSyncDomainRemote;
    SHOW("_ptsz set memSyncDomain of stream 0", cudaStreamSetAttribute_ptsz(0, cudaStreamAttributeMemSyncDomain, &v));
    SHOWI("per-thread memSyncDomain", get_int(cudaStreamPerThread, cudaLaunchAttributeMemSyncDomain));
    SHOW("_ptsz copy s to stream 0", cudaStreamCopyAttributes_ptsz(0, s));
    SHOWI("per-thread priority after copy", get_int(cudaStreamPerThread, cudaLaunchAttributePriority));
    SHOW("_ptsz get id 2", cudaStreamGetAttribute_ptsz(0, (cudaStreamAttrID)2, &v));
    SHOW_LAST("_ptsz get id 2");
    SHOW("_ptsz set id 99, NULL value", cudaStreamSetAttribute_ptsz(0, (cudaStreamAttrID)99, NULL));

    /* A created stream in the _ptsz exports is itself. */
    fill(&v);
    SHOW("_ptsz get syncPolicy of s", cudaStreamGetAttribute_ptsz(s, cudaStreamAttributeSynchronizationPolicy, &v));
    SHOWI("_ptsz syncPolicy of s", v.syncPolicy);

    OK(cudaFree(base));
    ct_destroy_streams(s, hi, copy, nb, NULL);
    SHOW_LAST("end");
    DONE();
}
