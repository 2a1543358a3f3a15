/*
 * cudart-rs: cuda_device_runtime_api.h as a host compiler sees NVIDIA's, which declares the
 * device runtime's functions (the API called from kernels) for device code only: to gcc, g++
 * and clang it declares nothing. cuda_runtime_api.h includes it, as NVIDIA's does.
 */
#ifndef CUDART_RS_CUDA_DEVICE_RUNTIME_API_H
#define CUDART_RS_CUDA_DEVICE_RUNTIME_API_H
#ifndef __CUDA_DEVICE_RUNTIME_API_H__
#define __CUDA_DEVICE_RUNTIME_API_H__
#endif
#endif
