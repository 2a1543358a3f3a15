/*
 * impostor.c: a library that is not a CUDA driver, for the secure-execution check
 * (scripts/test/observe/procs.py): loaded, its constructor creates the file MARK (given at
 * build time with -DMARK="path"), which shows that a program ran its code. The runtime must
 * load it when CUDART_RS_DRIVER names it in an ordinary process, and never in a setuid one.
 */
#include <fcntl.h>
#include <unistd.h>

__attribute__((constructor)) static void impostor_loaded(void) {
    int fd = open(MARK, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0) {
        (void)write(fd, "loaded\n", 7);
        close(fd);
    }
}
