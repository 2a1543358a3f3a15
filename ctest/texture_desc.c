/* Texture and surface objects of every resource type (arrays 1D/2D/3D, layered, cubemap,
 * mipmapped; linear and pitch-2D memory), with every texture descriptor field set and
 * resource views, read back field by field; the read modes and filters each format allows;
 * the runtime's and the driver's argument checks (null descriptors, resource types, channel
 * descriptors, alignment, pitch alignment, limits, views where none can be); surface objects;
 * the 1D linear width limit. */
#include "texture_util.h"

static cudaTextureObject_t t_last;

/* Creates a texture object, prints the result (and the last error on failure); on success
 * prints its three descriptors and destroys it. */
static cudaError_t try_tex(const char *label, const struct cudaResourceDesc *r, const struct cudaTextureDesc *t,
                           const struct cudaResourceViewDesc *v, const void *want) {
    cudaTextureObject_t o = 0;
    cudaError_t e = cudaCreateTextureObject(&o, r, t, v);
    printf("%s: %s\n", label, cudaGetErrorName(e));
    if (e != cudaSuccess) {
        SHOW_LAST(label);
        return e;
    }
    CHECK(o != 0);
    /* (The type read back may be another: pitch-2D memory of height 0 comes back as linear.) */
    struct cudaResourceDesc back;
    memset(&back, 0, sizeof back);
    CHECK(cudaGetTextureObjectResourceDesc(&back, o) == cudaSuccess);
    int has_view = v && (r->resType == cudaResourceTypeArray || r->resType == cudaResourceTypeMipmappedArray);
    tu_show_all(label, o, want, has_view);
    t_last = o;
    SHOW("  destroy", cudaDestroyTextureObject(o));
    return e;
}

/* A texture of format `d` on a 2D array: read mode `read`, filter `filter`. */
static void format_case(const char *label, struct cudaChannelFormatDesc d, int read, int filter) {
    cudaArray_t a = NULL;
    cudaError_t e = cudaMallocArray(&a, &d, 8, 8, 0);
    if (e != cudaSuccess) {
        printf("%s array: %s\n", label, cudaGetErrorName(e));
        cudaGetLastError();
        return;
    }
    struct cudaResourceDesc r = tu_array_res(a);
    struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, filter, read, 0);
    try_tex(label, &r, &t, NULL, a);
    OK(cudaFreeArray(a));
}

int main(void) {
    struct cudaChannelFormatDesc f1 = tu_desc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc f4 = tu_desc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc u8x4 = tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    struct cudaChannelFormatDesc h1 = tu_desc(16, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc i1 = tu_desc(32, 0, 0, 0, cudaChannelFormatKindSigned);
    struct cudaChannelFormatDesc s16x2 = tu_desc(16, 16, 0, 0, cudaChannelFormatKindSigned);
    struct cudaChannelFormatDesc u32x2 = tu_desc(32, 32, 0, 0, cudaChannelFormatKindUnsigned);

    int align = 0, pitch_align = 0, max1d = 0, max2d[3] = {0, 0, 0};
    OK(cudaDeviceGetAttribute(&align, cudaDevAttrTextureAlignment, 0));
    OK(cudaDeviceGetAttribute(&pitch_align, cudaDevAttrTexturePitchAlignment, 0));
    OK(cudaDeviceGetAttribute(&max1d, cudaDevAttrMaxTexture1DLinearWidth, 0));
    OK(cudaDeviceGetAttribute(&max2d[0], cudaDevAttrMaxTexture2DLinearWidth, 0));
    OK(cudaDeviceGetAttribute(&max2d[1], cudaDevAttrMaxTexture2DLinearHeight, 0));
    OK(cudaDeviceGetAttribute(&max2d[2], cudaDevAttrMaxTexture2DLinearPitch, 0));
    SHOWI("texture alignment", align);
    SHOWI("texture pitch alignment", pitch_align);

    /* ---- a 2D float array, every texture descriptor field set ---- */
    cudaArray_t a2 = NULL;
    OK(cudaMallocArray(&a2, &f1, 16, 8, 0));
    struct cudaResourceDesc r2 = tu_array_res(a2);
    struct cudaTextureDesc full;
    memset(&full, 0, sizeof full);
    full.addressMode[0] = cudaAddressModeWrap;
    full.addressMode[1] = cudaAddressModeMirror;
    full.addressMode[2] = cudaAddressModeBorder;
    full.filterMode = cudaFilterModeLinear;
    full.readMode = cudaReadModeElementType;
    full.sRGB = 0;
    full.borderColor[0] = 0.25f;
    full.borderColor[1] = -1.5f;
    full.borderColor[2] = 3.0f;
    full.borderColor[3] = 1e-3f;
    full.normalizedCoords = 1;
    full.maxAnisotropy = 4;
    full.mipmapFilterMode = cudaFilterModeLinear;
    full.mipmapLevelBias = 0.5f;
    full.minMipmapLevelClamp = 0.25f;
    full.maxMipmapLevelClamp = 3.5f;
    full.disableTrilinearOptimization = 1;
    full.seamlessCubemap = 0;
    try_tex("2D float all fields", &r2, &full, NULL, a2);

    /* Switches given as other non-zero values; anisotropy beyond 16 and 0. */
    struct cudaTextureDesc odd = full;
    odd.normalizedCoords = 7;
    odd.disableTrilinearOptimization = -1;
    odd.maxAnisotropy = 20;
    try_tex("2D float switches 7/-1, aniso 20", &r2, &odd, NULL, a2);
    odd.maxAnisotropy = 0;
    odd.normalizedCoords = 0;
    odd.addressMode[0] = cudaAddressModeBorder;
    odd.addressMode[1] = cudaAddressModeClamp;
    try_tex("2D float unnormalized, aniso 0", &r2, &odd, NULL, a2);
    /* Wrap and mirror without normalized coordinates (documented: switched to clamp). */
    struct cudaTextureDesc wrap = tu_tex(cudaAddressModeWrap, cudaFilterModePoint, cudaReadModeElementType, 0);
    wrap.addressMode[1] = cudaAddressModeMirror;
    try_tex("2D float wrap/mirror unnormalized", &r2, &wrap, NULL, a2);
    /* Values outside the enums: the driver's to judge. */
    struct cudaTextureDesc bad = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    bad.addressMode[0] = (enum cudaTextureAddressMode)7;
    try_tex("address mode 7", &r2, &bad, NULL, a2);
    bad = tu_tex(cudaAddressModeClamp, 2, cudaReadModeElementType, 0);
    try_tex("filter mode 2", &r2, &bad, NULL, a2);
    bad = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 1);
    bad.mipmapFilterMode = (enum cudaTextureFilterMode)5;
    try_tex("mipmap filter mode 5", &r2, &bad, NULL, a2);
    bad = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, 3, 0);
    try_tex("read mode 3 on float", &r2, &bad, NULL, a2);
    /* sRGB on a float array. */
    bad = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    bad.sRGB = 1;
    try_tex("sRGB on float", &r2, &bad, NULL, a2);
    /* Seamless cubemap filtering on an array that is no cubemap. */
    bad.sRGB = 0;
    bad.seamlessCubemap = 1;
    try_tex("seamless on 2D", &r2, &bad, NULL, a2);
    /* A view of the whole array, same format. */
    struct cudaResourceViewDesc v;
    memset(&v, 0, sizeof v);
    v.format = cudaResViewFormatFloat1;
    v.width = 16;
    v.height = 8;
    try_tex("2D float view float1", &r2, &wrap, &v, a2);
    v.format = cudaResViewFormatNone;
    try_tex("2D float view none", &r2, &wrap, &v, a2);
    v.format = cudaResViewFormatFloat1;
    v.width = 8;
    try_tex("2D float view narrower", &r2, &wrap, &v, a2);
    v.width = 16;
    v.firstMipmapLevel = 1;
    v.lastMipmapLevel = 1;
    try_tex("2D float view mip level 1", &r2, &wrap, &v, a2);
    memset(&v, 0, sizeof v);
    v.format = cudaResViewFormatUnsignedInt1;
    v.width = 16;
    v.height = 8;
    try_tex("2D float view uint1", &r2, &wrap, &v, a2);

    /* ---- read modes and filters by format ---- */
    format_case("uchar4 element point", u8x4, cudaReadModeElementType, cudaFilterModePoint);
    format_case("uchar4 element linear", u8x4, cudaReadModeElementType, cudaFilterModeLinear);
    format_case("uchar4 normalized linear", u8x4, cudaReadModeNormalizedFloat, cudaFilterModeLinear);
    format_case("short2 element point", s16x2, cudaReadModeElementType, cudaFilterModePoint);
    format_case("short2 normalized linear", s16x2, cudaReadModeNormalizedFloat, cudaFilterModeLinear);
    format_case("int element point", i1, cudaReadModeElementType, cudaFilterModePoint);
    format_case("int element linear", i1, cudaReadModeElementType, cudaFilterModeLinear);
    format_case("int normalized point", i1, cudaReadModeNormalizedFloat, cudaFilterModePoint);
    format_case("uint2 element point", u32x2, cudaReadModeElementType, cudaFilterModePoint);
    format_case("float element linear", f1, cudaReadModeElementType, cudaFilterModeLinear);
    format_case("float normalized point", f1, cudaReadModeNormalizedFloat, cudaFilterModePoint);
    format_case("float4 element linear", f4, cudaReadModeElementType, cudaFilterModeLinear);
    format_case("half element linear", h1, cudaReadModeElementType, cudaFilterModeLinear);
    format_case("half normalized linear", h1, cudaReadModeNormalizedFloat, cudaFilterModeLinear);
    format_case("unorm8x4 element point", tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsignedNormalized8X4),
                cudaReadModeElementType, cudaFilterModePoint);
    format_case("unorm8x4 normalized linear", tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsignedNormalized8X4),
                cudaReadModeNormalizedFloat, cudaFilterModeLinear);
    format_case("snorm16x1 normalized point", tu_desc(16, 0, 0, 0, cudaChannelFormatKindSignedNormalized16X1),
                cudaReadModeNormalizedFloat, cudaFilterModePoint);
    format_case("unorm1010102 normalized linear",
                tu_desc(10, 10, 10, 2, cudaChannelFormatKindUnsignedNormalized1010102), cudaReadModeNormalizedFloat,
                cudaFilterModeLinear);
    format_case("unorm1010102 element point", tu_desc(10, 10, 10, 2, cudaChannelFormatKindUnsignedNormalized1010102),
                cudaReadModeElementType, cudaFilterModePoint);
    format_case("bc1 normalized linear", tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed1),
                cudaReadModeNormalizedFloat, cudaFilterModeLinear);
    format_case("bc1 element point", tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed1),
                cudaReadModeElementType, cudaFilterModePoint);
    format_case("bc6h element linear", tu_desc(16, 16, 16, 0, cudaChannelFormatKindUnsignedBlockCompressed6H),
                cudaReadModeElementType, cudaFilterModeLinear);
    format_case("bc6h normalized point", tu_desc(16, 16, 16, 0, cudaChannelFormatKindUnsignedBlockCompressed6H),
                cudaReadModeNormalizedFloat, cudaFilterModePoint);
    /* uchar4 with sRGB. */
    {
        cudaArray_t a = NULL;
        OK(cudaMallocArray(&a, &u8x4, 4, 4, 0));
        struct cudaResourceDesc r = tu_array_res(a);
        struct cudaTextureDesc t = tu_tex(cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1);
        t.sRGB = 1;
        t.borderColor[3] = 1.0f;
        try_tex("uchar4 sRGB", &r, &t, NULL, a);
        OK(cudaFreeArray(a));
    }
    /* A block-compressed view of a uint2 array (4x the width and height). */
    {
        cudaArray_t a = NULL;
        OK(cudaMallocArray(&a, &u32x2, 4, 4, 0));
        struct cudaResourceDesc r = tu_array_res(a);
        struct cudaResourceViewDesc bv;
        memset(&bv, 0, sizeof bv);
        bv.format = cudaResViewFormatUnsignedBlockCompressed1;
        bv.width = 16;
        bv.height = 16;
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        try_tex("uint2 view bc1 element", &r, &t, &bv, a);
        t.readMode = cudaReadModeNormalizedFloat;
        try_tex("uint2 view bc1 normalized", &r, &t, &bv, a);
        OK(cudaFreeArray(a));
    }

    /* ---- 1D, 3D, layered, cubemap arrays ---- */
    {
        cudaArray_t a = NULL;
        OK(cudaMallocArray(&a, &f1, 64, 0, 0));
        struct cudaResourceDesc r = tu_array_res(a);
        struct cudaTextureDesc t = tu_tex(cudaAddressModeWrap, cudaFilterModeLinear, cudaReadModeElementType, 1);
        try_tex("1D array", &r, &t, NULL, a);
        OK(cudaFreeArray(a));

        OK(cudaMalloc3DArray(&a, &f4, make_cudaExtent(8, 8, 4), 0));
        r = tu_array_res(a);
        t = tu_tex(cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeElementType, 1);
        t.maxAnisotropy = 16;
        try_tex("3D array", &r, &t, NULL, a);
        OK(cudaFreeArray(a));

        OK(cudaMalloc3DArray(&a, &f1, make_cudaExtent(8, 8, 5), cudaArrayLayered));
        r = tu_array_res(a);
        t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        try_tex("2D layered", &r, &t, NULL, a);
        struct cudaResourceViewDesc lv;
        memset(&lv, 0, sizeof lv);
        lv.format = cudaResViewFormatFloat1;
        lv.width = 8;
        lv.height = 8;
        lv.depth = 5;
        lv.firstLayer = 1;
        lv.lastLayer = 3;
        try_tex("2D layered view layers 1-3", &r, &t, &lv, a);
        lv.lastLayer = 5;
        try_tex("2D layered view layers 1-5", &r, &t, &lv, a);
        lv.firstLayer = 3;
        lv.lastLayer = 1;
        try_tex("2D layered view layers 3-1", &r, &t, &lv, a);
        OK(cudaFreeArray(a));

        OK(cudaMalloc3DArray(&a, &f1, make_cudaExtent(16, 0, 3), cudaArrayLayered));
        r = tu_array_res(a);
        try_tex("1D layered", &r, &t, NULL, a);
        OK(cudaFreeArray(a));

        OK(cudaMalloc3DArray(&a, &u8x4, make_cudaExtent(8, 8, 6), cudaArrayCubemap));
        r = tu_array_res(a);
        t = tu_tex(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1);
        t.seamlessCubemap = 1;
        try_tex("cubemap seamless", &r, &t, NULL, a);
        t.seamlessCubemap = 0;
        t.normalizedCoords = 0;
        try_tex("cubemap unnormalized", &r, &t, NULL, a);
        OK(cudaFreeArray(a));

        OK(cudaMalloc3DArray(&a, &f1, make_cudaExtent(8, 8, 12), cudaArrayCubemap | cudaArrayLayered));
        r = tu_array_res(a);
        t = tu_tex(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 1);
        t.seamlessCubemap = 1;
        try_tex("cubemap layered seamless", &r, &t, NULL, a);
        OK(cudaFreeArray(a));
    }

    /* ---- mipmapped arrays ---- */
    {
        cudaMipmappedArray_t m = NULL;
        OK(cudaMallocMipmappedArray(&m, &f1, make_cudaExtent(16, 16, 0), 4, 0));
        struct cudaResourceDesc r = tu_mipmap_res(m);
        try_tex("mipmap all fields", &r, &full, NULL, m);
        struct cudaTextureDesc t = full;
        t.normalizedCoords = 0;
        try_tex("mipmap unnormalized", &r, &t, NULL, m);
        struct cudaResourceViewDesc mv;
        memset(&mv, 0, sizeof mv);
        mv.format = cudaResViewFormatFloat1;
        mv.width = 16;
        mv.height = 16;
        mv.firstMipmapLevel = 1;
        mv.lastMipmapLevel = 3;
        try_tex("mipmap view levels 1-3", &r, &full, &mv, m);
        mv.lastMipmapLevel = 4;
        try_tex("mipmap view levels 1-4", &r, &full, &mv, m);
        OK(cudaFreeMipmappedArray(m));

        OK(cudaMallocMipmappedArray(&m, &u8x4, make_cudaExtent(8, 8, 6), 3, cudaArrayCubemap));
        r = tu_mipmap_res(m);
        t = tu_tex(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1);
        t.seamlessCubemap = 1;
        t.mipmapFilterMode = cudaFilterModeLinear;
        t.maxMipmapLevelClamp = 2.0f;
        try_tex("mipmap cubemap seamless", &r, &t, NULL, m);
        OK(cudaFreeMipmappedArray(m));

        SHOW("mipmap null handle", cudaCreateTextureObject(&t_last, &(struct cudaResourceDesc){.resType = cudaResourceTypeMipmappedArray}, &full, NULL));
        SHOW_LAST("mipmap null handle");
    }

    /* ---- linear memory ---- */
    {
        char *d = NULL;
        OK(cudaMalloc((void **)&d, 1 << 16));
        struct cudaResourceDesc r = tu_linear_res(d, f1, 4096);
        struct cudaTextureDesc t = full;
        try_tex("linear float all fields", &r, &t, NULL, d);
        t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        r = tu_linear_res(d, u8x4, 4096);
        try_tex("linear uchar4 element", &r, &t, NULL, d);
        t.readMode = cudaReadModeNormalizedFloat;
        try_tex("linear uchar4 normalized", &r, &t, NULL, d);
        t = tu_tex(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
        try_tex("linear uchar4 element linear", &r, &t, NULL, d);
        r = tu_linear_res(d, i1, 4096);
        try_tex("linear int linear", &r, &t, NULL, d);
        t.filterMode = cudaFilterModePoint;
        r = tu_linear_res(d, h1, 4096);
        try_tex("linear half", &r, &t, NULL, d);
        r = tu_linear_res(d, f1, 4094);
        try_tex("linear size not a multiple", &r, &t, NULL, d);
        r = tu_linear_res(d, f1, 2);
        try_tex("linear size below one element", &r, &t, NULL, d);
        r = tu_linear_res(d, f1, 0);
        try_tex("linear size 0", &r, &t, NULL, d);
        r = tu_linear_res(d + 4, f1, 4096);
        try_tex("linear unaligned", &r, &t, NULL, d + 4);
        r = tu_linear_res(d + align, f1, 4096);
        try_tex("linear aligned offset", &r, &t, NULL, d + align);
        r = tu_linear_res(d, f1, ((size_t)max1d + 1) * 4);
        try_tex("linear beyond max width", &r, &t, NULL, d);
        r = tu_linear_res(d, f1, (size_t)max1d * 4);
        try_tex("linear at max width", &r, &t, NULL, d);
        r = tu_linear_res(d, tu_desc(8, 8, 8, 0, cudaChannelFormatKindUnsigned), 4096);
        try_tex("linear 3 channels", &r, &t, NULL, d);
        r = tu_linear_res(d, tu_desc(0, 0, 0, 0, cudaChannelFormatKindNone), 4096);
        try_tex("linear kind none", &r, &t, NULL, d);
        r = tu_linear_res(NULL, f1, 4096);
        try_tex("linear null pointer", &r, &t, NULL, NULL);
        r = tu_linear_res(d, f1, 4096);
        struct cudaResourceViewDesc lv;
        memset(&lv, 0, sizeof lv);
        lv.format = cudaResViewFormatFloat1;
        lv.width = 1024;
        try_tex("linear with view", &r, &t, &lv, d);

        /* ---- pitch 2D memory ---- */
        char *p = NULL;
        size_t pitch = 0;
        OK(cudaMallocPitch((void **)&p, &pitch, 16 * sizeof(float), 8));
        CHECK(pitch % (size_t)pitch_align == 0);
        r = tu_pitch_res(p, f1, 16, 8, pitch);
        try_tex("pitch2D float all fields", &r, &full, NULL, p);
        r = tu_pitch_res(p, u8x4, 16, 8, pitch);
        t = tu_tex(cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1);
        try_tex("pitch2D uchar4 normalized", &r, &t, NULL, p);
        t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        r = tu_pitch_res(d, f1, 8, 8, (size_t)pitch_align);
        try_tex("pitch2D pitch = alignment", &r, &t, NULL, d);
        r = tu_pitch_res(d, f1, 8, 8, (size_t)pitch_align + 16);
        try_tex("pitch2D pitch not aligned", &r, &t, NULL, d);
        r = tu_pitch_res(d, f1, 16, 8, 32);
        try_tex("pitch2D pitch narrower than a row", &r, &t, NULL, d);
        r = tu_pitch_res(d + 4, f1, 8, 8, 64);
        try_tex("pitch2D unaligned", &r, &t, NULL, d + 4);
        r = tu_pitch_res(d, f1, (size_t)max2d[0] + 1, 1, ((size_t)max2d[0] + 1) * 4);
        try_tex("pitch2D width beyond max", &r, &t, NULL, d);
        r = tu_pitch_res(d, f1, 8, (size_t)max2d[1] + 1, 64);
        try_tex("pitch2D height beyond max", &r, &t, NULL, d);
        r = tu_pitch_res(d, u8x4, 8, 1, (size_t)max2d[2] + (size_t)pitch_align);
        try_tex("pitch2D pitch beyond max", &r, &t, NULL, d);
        r = tu_pitch_res(d, f1, 0, 8, 64);
        try_tex("pitch2D width 0", &r, &t, NULL, d);
        r = tu_pitch_res(d, f1, 8, 0, 64);
        try_tex("pitch2D height 0", &r, &t, NULL, d);
        r = tu_pitch_res(d, tu_desc(8, 16, 0, 0, cudaChannelFormatKindUnsigned), 8, 8, 64);
        try_tex("pitch2D mixed channel sizes", &r, &t, NULL, d);
        ct_free_device(p, d, NULL);
    }

    /* ---- the runtime's own checks ---- */
    {
        cudaTextureObject_t o = 0;
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        struct cudaResourceDesc r = r2;
        r.resType = (enum cudaResourceType)4;
        SHOW("resource type 4", cudaCreateTextureObject(&o, &r, &t, NULL));
        SHOW_LAST("resource type 4");
        r.resType = (enum cudaResourceType)-1;
        SHOW("resource type -1", cudaCreateTextureObject(&o, &r, &t, NULL));
        SHOW_LAST("resource type -1");
        SHOW("null resource desc", cudaCreateTextureObject(&o, NULL, &t, NULL));
        SHOW_LAST("null resource desc");
        SHOW("null texture desc", cudaCreateTextureObject(&o, &r2, NULL, NULL));
        SHOW_LAST("null texture desc");
        SHOW("null both", cudaCreateTextureObject(&o, NULL, NULL, NULL));
        SHOW_LAST("null both");
        r = tu_array_res(NULL);
        SHOW("null array", cudaCreateTextureObject(&o, &r, &t, NULL));
        SHOW_LAST("null array");
#if CUDART_VERSION >= 13000
        r = r2;
        r.flags = 1;
        SHOW("resource flags 1", cudaCreateTextureObject(&o, &r, &t, NULL));
        SHOW_LAST("resource flags 1");
        if (o) {
            tu_show_tex_res("resource flags 1", o, a2);
            OK(cudaDestroyTextureObject(o));
            o = 0;
        }
#endif
        /* A view's reserved words (CUDA 13) are not looked at. */
#if CUDART_VERSION >= 13000
        struct cudaResourceViewDesc rv;
        memset(&rv, 0, sizeof rv);
        rv.format = cudaResViewFormatFloat1;
        rv.width = 16;
        rv.height = 8;
        rv.reserved[0] = 99;
        SHOW("view reserved set", cudaCreateTextureObject(&o, &r2, &t, &rv));
        if (o) {
            tu_show_view("view reserved set", o);
            OK(cudaDestroyTextureObject(o));
            o = 0;
        }
#endif
        /* A texture object without a view has none to read back (its fields are not printed:
         * NVIDIA's runtime returns whatever its stack held). */
        OK(cudaCreateTextureObject(&o, &r2, &t, NULL));
        tu_view_result("no view", o);
        SHOW_LAST("no view");
        OK(cudaDestroyTextureObject(o));

        /* Object 0. */
        struct cudaResourceDesc rr;
        struct cudaTextureDesc tt;
        struct cudaResourceViewDesc vv;
        SHOW("res desc of 0", cudaGetTextureObjectResourceDesc(&rr, 0));
        SHOW_LAST("res desc of 0");
        SHOW("tex desc of 0", cudaGetTextureObjectTextureDesc(&tt, 0));
        SHOW_LAST("tex desc of 0");
        SHOW("view desc of 0", cudaGetTextureObjectResourceViewDesc(&vv, 0));
        SHOW_LAST("view desc of 0");
        SHOW("destroy texture 0", cudaDestroyTextureObject(0));
        SHOW_LAST("destroy texture 0");
    }

    /* ---- many objects on one array ---- */
    {
        cudaTextureObject_t objs[64];
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        int created = 0, distinct = 1;
        for (int i = 0; i < 64; i++) {
            t.maxAnisotropy = (unsigned)(i % 17);
            if (cudaCreateTextureObject(&objs[i], &r2, &t, NULL) == cudaSuccess) created++;
        }
        SHOWI("created of 64", created);
        for (int i = 0; i < created; i++)
            for (int j = 0; j < i; j++) distinct &= objs[i] != objs[j];
        CHECK(distinct);
        tu_show_tex_desc("object 33", objs[33]);
        int destroyed = 0;
        for (int i = 0; i < created; i++) destroyed += cudaDestroyTextureObject(objs[i]) == cudaSuccess;
        SHOWI("destroyed", destroyed);
    }

    /* ---- surface objects ---- */
    {
        cudaArray_t s2 = NULL, s3 = NULL, sl = NULL, sc = NULL;
        OK(cudaMallocArray(&s2, &f1, 16, 8, cudaArraySurfaceLoadStore));
        OK(cudaMalloc3DArray(&s3, &u8x4, make_cudaExtent(8, 8, 4), cudaArraySurfaceLoadStore));
        OK(cudaMalloc3DArray(&sl, &f1, make_cudaExtent(8, 8, 3), cudaArraySurfaceLoadStore | cudaArrayLayered));
        OK(cudaMalloc3DArray(&sc, &f4, make_cudaExtent(8, 8, 6), cudaArraySurfaceLoadStore | cudaArrayCubemap));
        cudaArray_t arrays[4] = {s2, s3, sl, sc};
        const char *names[4] = {"surface 2D", "surface 3D", "surface layered", "surface cubemap"};
        for (int i = 0; i < 4; i++) {
            cudaSurfaceObject_t s = 0;
            struct cudaResourceDesc r = tu_array_res(arrays[i]);
            SHOW(names[i], cudaCreateSurfaceObject(&s, &r));
            CHECK(s != 0);
            tu_show_surf_res(names[i], s, arrays[i]);
            SHOW("  destroy", cudaDestroySurfaceObject(s));
        }
        cudaSurfaceObject_t s = 0;
        struct cudaResourceDesc r = tu_array_res(a2);
        SHOW("surface without load/store flag", cudaCreateSurfaceObject(&s, &r));
        SHOW_LAST("surface without load/store flag");
        char *d = NULL;
        OK(cudaMalloc((void **)&d, 4096));
        r = tu_linear_res(d, f1, 4096);
        SHOW("surface on linear", cudaCreateSurfaceObject(&s, &r));
        SHOW_LAST("surface on linear");
        r = tu_pitch_res(d, f1, 8, 8, 64);
        SHOW("surface on pitch2D", cudaCreateSurfaceObject(&s, &r));
        SHOW_LAST("surface on pitch2D");
        r = tu_linear_res(d, tu_desc(8, 8, 8, 0, cudaChannelFormatKindUnsigned), 4096);
        SHOW("surface on linear, 3 channels", cudaCreateSurfaceObject(&s, &r));
        SHOW_LAST("surface on linear, 3 channels");
        OK(cudaFree(d));
        cudaMipmappedArray_t m = NULL;
        OK(cudaMallocMipmappedArray(&m, &f1, make_cudaExtent(8, 8, 0), 2, cudaArraySurfaceLoadStore));
        r = tu_mipmap_res(m);
        SHOW("surface on mipmap", cudaCreateSurfaceObject(&s, &r));
        SHOW_LAST("surface on mipmap");
        cudaArray_t level = NULL;
        OK(cudaGetMipmappedArrayLevel(&level, m, 1));
        r = tu_array_res(level);
        SHOW("surface on mipmap level 1", cudaCreateSurfaceObject(&s, &r));
        if (s) {
            tu_show_surf_res("surface on mipmap level 1", s, level);
            OK(cudaDestroySurfaceObject(s));
            s = 0;
        }
        OK(cudaFreeMipmappedArray(m));
        r = tu_array_res(NULL);
        SHOW("surface null array", cudaCreateSurfaceObject(&s, &r));
        SHOW_LAST("surface null array");
        r = tu_array_res(s2);
        r.resType = (enum cudaResourceType)9;
        SHOW("surface resource type 9", cudaCreateSurfaceObject(&s, &r));
        SHOW_LAST("surface resource type 9");
        SHOW("surface null desc", cudaCreateSurfaceObject(&s, NULL));
        SHOW_LAST("surface null desc");
        struct cudaResourceDesc rr;
        SHOW("surface res desc of 0", cudaGetSurfaceObjectResourceDesc(&rr, 0));
        SHOW_LAST("surface res desc of 0");
        SHOW("destroy surface 0", cudaDestroySurfaceObject(0));
        SHOW_LAST("destroy surface 0");
        for (int i = 0; i < 4; i++) OK(cudaFreeArray(arrays[i]));
    }

    /* ---- the 1D linear width limit ---- */
    {
        struct cudaChannelFormatDesc descs[] = {f1, f4, u8x4, h1, i1, tu_desc(8, 0, 0, 0, cudaChannelFormatKindUnsigned),
                                                tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsignedNormalized8X4)};
        const char *names[] = {"float", "float4", "uchar4", "half", "int", "uchar", "unorm8x4"};
        for (int i = 0; i < 7; i++) {
            size_t w = 12345;
            char label[64];
            snprintf(label, sizeof label, "1D linear max width %s", names[i]);
            SHOW(label, cudaDeviceGetTexture1DLinearMaxWidth(&w, &descs[i], 0));
            SHOWU(label, w);
        }
        size_t w = 12345;
        struct cudaChannelFormatDesc three = tu_desc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
        SHOW("max width 3 channels", cudaDeviceGetTexture1DLinearMaxWidth(&w, &three, 0));
        SHOW_LAST("max width 3 channels");
        struct cudaChannelFormatDesc bc1 = tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed1);
        SHOW("max width bc1", cudaDeviceGetTexture1DLinearMaxWidth(&w, &bc1, 0));
        SHOW_LAST("max width bc1");
        SHOW("max width device -1", cudaDeviceGetTexture1DLinearMaxWidth(&w, &f1, -1));
        SHOW_LAST("max width device -1");
        SHOW("max width device 99", cudaDeviceGetTexture1DLinearMaxWidth(&w, &f1, 99));
        SHOW_LAST("max width device 99");
        SHOW("max width null desc", cudaDeviceGetTexture1DLinearMaxWidth(&w, NULL, 0));
        SHOW_LAST("max width null desc");
        SHOW("max width null out", cudaDeviceGetTexture1DLinearMaxWidth(NULL, &f1, 0));
        SHOW_LAST("max width null out");
    }

    /* Calls last that NVIDIA's runtime might not survive: null out pointers, and an object
     * already destroyed. */
    {
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        SHOW("null object pointer", cudaCreateTextureObject(NULL, &r2, &t, NULL));
        SHOW_LAST("null object pointer");
        SHOW("surface null object pointer", cudaCreateSurfaceObject(NULL, &r2));
        SHOW_LAST("surface null object pointer");
        cudaTextureObject_t o = 0;
        OK(cudaCreateTextureObject(&o, &r2, &t, NULL));
        SHOW("res desc null out", cudaGetTextureObjectResourceDesc(NULL, o));
        SHOW_LAST("res desc null out");
        SHOW("tex desc null out", cudaGetTextureObjectTextureDesc(NULL, o));
        SHOW_LAST("tex desc null out");
        SHOW("view desc null out", cudaGetTextureObjectResourceViewDesc(NULL, o));
        SHOW_LAST("view desc null out");
        OK(cudaDestroyTextureObject(o));
        tu_show_tex_res("destroyed", o, a2);
        SHOW_LAST("destroyed");
        SHOW("destroy again", cudaDestroyTextureObject(o));
        SHOW_LAST("destroy again");
    }

    OK(cudaFreeArray(a2));
    DONE();
}
