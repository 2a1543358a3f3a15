/*
 * cudart-rs: host_defines.h, which older programs include for CUDA C++'s qualifiers
 * (__host__, __device__, ...); the definitions are crt/host_defines.h's.
 */
#ifndef CUDART_RS_HOST_DEFINES_TOP_H
#define CUDART_RS_HOST_DEFINES_TOP_H
#include "crt/host_defines.h"
#endif
