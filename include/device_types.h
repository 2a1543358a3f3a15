/*
 * cudart-rs: device_types.h, the rounding modes of device arithmetic (the one type NVIDIA's
 * device_types.h declares).
 */
#ifndef CUDART_RS_DEVICE_TYPES_H
#define CUDART_RS_DEVICE_TYPES_H
#ifndef __DEVICE_TYPES_H__
#define __DEVICE_TYPES_H__
#endif
#include "crt/host_defines.h"

/** Rounding modes of device arithmetic. */
enum cudaRoundMode {
    cudaRoundNearest,
    cudaRoundZero,
    cudaRoundPosInf,
    cudaRoundMinInf
};

#endif
