/* ctest: gpu */
/* The error log (CUDA 13): a registered callback, failing calls that may give the driver
 * something to log, the log's iterator, dumps to memory and to a file, unregistering; bad
 * arguments. Message texts are the driver's and are not printed, only whether there were any.
 * The CUDA 12 runtime has no error log. */
#include "ctest.h"
#include <unistd.h>

#if CUDART_VERSION >= 13000
static int calls = 0, first_level = -1, first_nonempty = -1;

static void on_log(void *data, cudaLogLevel level, char *message, size_t length) {
    if (calls == 0) {
        first_level = (int)level;
        first_nonempty = message != NULL && length > 0;
    }
    calls++;
    (*(int *)data)++;
}

/* Calls that fail in the driver. */
static void provoke(void) {
    void *p = NULL;
    SHOW("cudaMalloc(1 PiB)", cudaMalloc(&p, (size_t)1 << 50));
    cudaStreamAttrValue v;
    SHOW("cudaStreamGetAttribute(cooperative)", cudaStreamGetAttribute(0, (cudaStreamAttrID)2, &v));
    cudaStream_t s = NULL;
    SHOW("cudaStreamCreateWithPriority(flags 0x10)", cudaStreamCreateWithPriority(&s, 0x10, 0));
    SHOW_LAST("provoke");
}
#endif

int main(void) {
#if CUDART_VERSION >= 13000
    OK(cudaFree(NULL));
    cudaLogIterator start = 12345, it = 12345;
    SHOW("cudaLogsCurrent", cudaLogsCurrent(&start, 0));
    SHOW("cudaLogsCurrent(NULL)", cudaLogsCurrent(NULL, 0));
    SHOW_LAST("cudaLogsCurrent(NULL)");
    SHOW("cudaLogsCurrent(flags 1)", cudaLogsCurrent(&it, 1));
    SHOW_LAST("cudaLogsCurrent(flags 1)");

    int counter = 0;
    cudaLogsCallbackHandle h = NULL, h2 = NULL;
    SHOW("cudaLogsRegisterCallback", cudaLogsRegisterCallback(on_log, &counter, &h));
    SHOWI("  handle set", h != NULL);
    SHOW("cudaLogsRegisterCallback(NULL callback)", cudaLogsRegisterCallback(NULL, NULL, &h2));
    SHOW_LAST("register NULL callback");
    SHOW("cudaLogsRegisterCallback(NULL handle)", cudaLogsRegisterCallback(on_log, &counter, NULL));
    SHOW_LAST("register NULL handle");

    provoke();
    SHOWI("callback called", calls > 0);
    SHOWI("counter matches", counter == calls);
    if (calls > 0) {
        SHOWI("first level", first_level);
        SHOWI("first message not empty", first_nonempty);
    }
    it = 12345;
    SHOW("cudaLogsCurrent after errors", cudaLogsCurrent(&it, 0));
    SHOWI("iterator moved", it != start);

    /* Dumps to memory: from where the test began, from the start of the log. */
    char buf[8192];
    size_t size = sizeof buf;
    cudaLogIterator from = start;
    memset(buf, 0x7f, sizeof buf);
    SHOW("cudaLogsDumpToMemory(since start)", cudaLogsDumpToMemory(&from, buf, &size, 0));
    SHOWI("  size not zero", size > 0);
    SHOWI("  size within buffer", size <= sizeof buf);
    SHOWI("  text", buf[0] != 0x7f && buf[0] != 0);
    size = sizeof buf;
    SHOW("cudaLogsDumpToMemory(NULL iterator)", cudaLogsDumpToMemory(NULL, buf, &size, 0));
    SHOWI("  size not zero", size > 0);
    size = 4;
    from = start;
    SHOW("cudaLogsDumpToMemory(4 bytes)", cudaLogsDumpToMemory(&from, buf, &size, 0));
    SHOW_LAST("dump 4 bytes");
    SHOWI("  size", size);
    size = sizeof buf;
    SHOW("cudaLogsDumpToMemory(NULL buffer)", cudaLogsDumpToMemory(NULL, NULL, &size, 0));
    SHOW_LAST("dump NULL buffer");
    SHOW("cudaLogsDumpToMemory(NULL size)", cudaLogsDumpToMemory(NULL, buf, NULL, 0));
    SHOW_LAST("dump NULL size");
    size = sizeof buf;
    SHOW("cudaLogsDumpToMemory(flags 1)", cudaLogsDumpToMemory(NULL, buf, &size, 1));
    SHOW_LAST("dump flags 1");

    /* Dumps to a file. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/cudart-logs-%d.txt", (int)getpid());
    from = start;
    SHOW("cudaLogsDumpToFile(since start)", cudaLogsDumpToFile(&from, path, 0));
    FILE *f = fopen(path, "r");
    long len = -1;
    if (f) {
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        fclose(f);
    }
    SHOWI("  file written", f != NULL);
    SHOWI("  file not empty", len > 0);
    unlink(path);
    SHOW("cudaLogsDumpToFile(NULL path)", cudaLogsDumpToFile(NULL, NULL, 0));
    SHOW_LAST("dump to NULL path");
    SHOW("cudaLogsDumpToFile(directory)", cudaLogsDumpToFile(NULL, "/", 0));
    SHOW_LAST("dump to a directory");
    SHOW("cudaLogsDumpToFile(flags 1)", cudaLogsDumpToFile(NULL, "/dev/null", 1));
    SHOW_LAST("dump flags 1");

    /* Unregistered, the callback hears nothing more. */
    SHOW("cudaLogsUnregisterCallback", cudaLogsUnregisterCallback(h));
    int before = calls;
    provoke();
    SHOWI("callback quiet after unregistering", calls == before);
    SHOW("cudaLogsUnregisterCallback(NULL)", cudaLogsUnregisterCallback(NULL));
    SHOW_LAST("unregister NULL");
#else
    printf("no error log in the CUDA 12 runtime\n");
#endif
    DONE();
}
