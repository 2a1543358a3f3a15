/*
 * cudart-rs: every type of the runtime API, as NVIDIA's builtin_types.h gathers them.
 */
#ifndef CUDART_RS_BUILTIN_TYPES_H
#define CUDART_RS_BUILTIN_TYPES_H
#include "device_types.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"
#endif
