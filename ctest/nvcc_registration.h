/*
 * nvcc_registration.h: the registration entry points nvcc's generated code calls (crt/host_runtime.h
 * declares them for nvcc's code), for the tests that register a fat binary by hand.
 */
#ifndef CUDART_RS_NVCC_REGISTRATION_H
#define CUDART_RS_NVCC_REGISTRATION_H

#include <stddef.h>

extern void **__cudaRegisterFatBinary(void *fatCubin);
extern void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
extern void __cudaUnregisterFatBinary(void **fatCubinHandle);
extern void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, void *tid, void *bid,
                                   void *bDim, void *gDim, int *wSize);
extern void __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName, char *hostVar, size_t size);
extern void __cudaRegisterUnifiedTable(void **fatCubinHandle, void *functionTable, size_t functionWindowSize,
                                       void *dataTable, size_t dataWindowSize);

#endif
