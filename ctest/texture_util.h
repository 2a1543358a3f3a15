/* What the texture and surface tests share: printing the descriptors a texture or surface
 * object reads back, field by field (handles and pointers only as "same" or "other" than the
 * one given), and a few constructors. Outputs are filled with 0x7f bytes first, so a field the
 * runtime leaves unwritten shows. */
#ifndef CUDART_RS_TEXTURE_UTIL_H
#define CUDART_RS_TEXTURE_UTIL_H

#include "ctest.h"

static struct cudaChannelFormatDesc tu_desc(int x, int y, int z, int w, int kind) {
    return cudaCreateChannelDesc(x, y, z, w, (enum cudaChannelFormatKind)kind);
}

static const char *tu_same(const void *got, const void *want) { return got == want ? "same" : "other"; }

/* Prints a resource descriptor; `want` is the array, mipmapped array or memory it should name. */
static void tu_show_res_desc(const char *label, const struct cudaResourceDesc *r, const void *want) {
    printf("%s res: type=%d", label, (int)r->resType);
    switch ((int)r->resType) {
    case cudaResourceTypeArray:
        printf(" array=%s", tu_same(r->res.array.array, want));
        break;
    case cudaResourceTypeMipmappedArray:
        printf(" mipmap=%s", tu_same(r->res.mipmap.mipmap, want));
        break;
    case cudaResourceTypeLinear:
        printf(" devPtr=%s desc=(%d,%d,%d,%d kind %d) size=%llu", tu_same(r->res.linear.devPtr, want),
               r->res.linear.desc.x, r->res.linear.desc.y, r->res.linear.desc.z, r->res.linear.desc.w,
               (int)r->res.linear.desc.f, (unsigned long long)r->res.linear.sizeInBytes);
        break;
    case cudaResourceTypePitch2D:
        printf(" devPtr=%s desc=(%d,%d,%d,%d kind %d) width=%llu height=%llu pitch=%llu",
               tu_same(r->res.pitch2D.devPtr, want), r->res.pitch2D.desc.x, r->res.pitch2D.desc.y,
               r->res.pitch2D.desc.z, r->res.pitch2D.desc.w, (int)r->res.pitch2D.desc.f,
               (unsigned long long)r->res.pitch2D.width, (unsigned long long)r->res.pitch2D.height,
               (unsigned long long)r->res.pitch2D.pitchInBytes);
        break;
    }
#if CUDART_VERSION >= 13000
    printf(" flags=0x%x", r->flags);
#endif
    printf("\n");
}

/* cudaGetTextureObjectResourceDesc, printed. */
static cudaError_t tu_show_tex_res(const char *label, cudaTextureObject_t t, const void *want) {
    struct cudaResourceDesc r;
    memset(&r, 0x7f, sizeof r);
    cudaError_t e = cudaGetTextureObjectResourceDesc(&r, t);
    if (e != cudaSuccess) {
        printf("%s res: %s\n", label, cudaGetErrorName(e));
        return e;
    }
    tu_show_res_desc(label, &r, want);
    return e;
}

/* cudaGetSurfaceObjectResourceDesc, printed. */
static cudaError_t tu_show_surf_res(const char *label, cudaSurfaceObject_t s, const void *want) {
    struct cudaResourceDesc r;
    memset(&r, 0x7f, sizeof r);
    cudaError_t e = cudaGetSurfaceObjectResourceDesc(&r, s);
    if (e != cudaSuccess) {
        printf("%s res: %s\n", label, cudaGetErrorName(e));
        return e;
    }
    tu_show_res_desc(label, &r, want);
    return e;
}

/* cudaGetTextureObjectTextureDesc, printed (floats exactly, with %a). Not the border colour:
 * the driver does not give it back, and NVIDIA's runtime returns whatever its stack held. */
static cudaError_t tu_show_tex_desc(const char *label, cudaTextureObject_t t) {
    struct cudaTextureDesc d;
    memset(&d, 0x7f, sizeof d);
    cudaError_t e = cudaGetTextureObjectTextureDesc(&d, t);
    if (e != cudaSuccess) {
        printf("%s tex: %s\n", label, cudaGetErrorName(e));
        return e;
    }
    printf("%s tex: address=(%d,%d,%d) filter=%d read=%d sRGB=%d normalized=%d "
           "aniso=%u mipfilter=%d bias=%a clamp=(%a,%a) notrilinear=%d seamless=%d\n",
           label, (int)d.addressMode[0], (int)d.addressMode[1], (int)d.addressMode[2], (int)d.filterMode,
           (int)d.readMode, d.sRGB, d.normalizedCoords, d.maxAnisotropy, (int)d.mipmapFilterMode, d.mipmapLevelBias,
           d.minMipmapLevelClamp, d.maxMipmapLevelClamp, d.disableTrilinearOptimization, d.seamlessCubemap);
    return e;
}

/* cudaGetTextureObjectResourceViewDesc, printed. Only for an object made with a view of an
 * array or mipmapped array: of any other the driver gives nothing back (success), and NVIDIA's
 * runtime returns whatever its stack held (tu_view_result). */
static cudaError_t tu_show_view(const char *label, cudaTextureObject_t t) {
    struct cudaResourceViewDesc v;
    memset(&v, 0x7f, sizeof v);
    cudaError_t e = cudaGetTextureObjectResourceViewDesc(&v, t);
    if (e != cudaSuccess) {
        printf("%s view: %s\n", label, cudaGetErrorName(e));
        return e;
    }
    printf("%s view: format=%d extent=(%llu,%llu,%llu) mip=(%u,%u) layer=(%u,%u)\n", label, (int)v.format,
           (unsigned long long)v.width, (unsigned long long)v.height, (unsigned long long)v.depth,
           v.firstMipmapLevel, v.lastMipmapLevel, v.firstLayer, v.lastLayer);
    return e;
}

/* cudaGetTextureObjectResourceViewDesc of an object without a view: the result only. */
static cudaError_t tu_view_result(const char *label, cudaTextureObject_t t) {
    struct cudaResourceViewDesc v;
    memset(&v, 0x7f, sizeof v);
    cudaError_t e = cudaGetTextureObjectResourceViewDesc(&v, t);
    printf("%s view: %s\n", label, cudaGetErrorName(e));
    return e;
}

/* All three descriptors of a texture object; its view's fields only if it has one. */
static void tu_show_all(const char *label, cudaTextureObject_t t, const void *want, int has_view) {
    tu_show_tex_res(label, t, want);
    tu_show_tex_desc(label, t);
    if (has_view)
        tu_show_view(label, t);
    else
        tu_view_result(label, t);
}

static struct cudaResourceDesc tu_array_res(cudaArray_t a) {
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}

static struct cudaResourceDesc tu_mipmap_res(cudaMipmappedArray_t m) {
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = m;
    return r;
}

static struct cudaResourceDesc tu_linear_res(void *p, struct cudaChannelFormatDesc d, size_t bytes) {
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = p;
    r.res.linear.desc = d;
    r.res.linear.sizeInBytes = bytes;
    return r;
}

static struct cudaResourceDesc tu_pitch_res(void *p, struct cudaChannelFormatDesc d, size_t w, size_t h, size_t pitch) {
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = p;
    r.res.pitch2D.desc = d;
    r.res.pitch2D.width = w;
    r.res.pitch2D.height = h;
    r.res.pitch2D.pitchInBytes = pitch;
    return r;
}

/* A texture descriptor: every address mode `am`, filter, read mode, normalized coordinates;
 * the rest zero. */
static struct cudaTextureDesc tu_tex(int am, int filter, int read, int normalized) {
    struct cudaTextureDesc t;
    memset(&t, 0, sizeof t);
    t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = (enum cudaTextureAddressMode)am;
    t.filterMode = (enum cudaTextureFilterMode)filter;
    t.readMode = (enum cudaTextureReadMode)read;
    t.normalizedCoords = normalized;
    return t;
}

#endif
