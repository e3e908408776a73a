#include "midiviz_yuv.h"

/* Fixed point, x 2^16: Y = 16 + 219 (0.2126 R + 0.7152 G + 0.0722 B) / 255, and
 * U, V = 128 + 224 (B' - Y') / 1.8556 / 255, (R' - Y') / 1.5748 / 255. */
enum {
    Y_R = 11966, Y_G = 40254, Y_B = 4064,
    U_R = -6596, U_G = -22189, U_B = 28784,
    V_R = 28784, V_G = -26145, V_B = -2639,
};

/* Baseline x86-64 has no 32-bit vector multiply: the same loops built for AVX2 and AVX-512 too
 * (picked at load time by the CPU) run 3-4x faster. */
#if defined(__x86_64__) && defined(__clang__)
#define MIDIVIZ_CLONES __attribute__((target_clones("avx512bw", "avx2", "default")))
#else
#define MIDIVIZ_CLONES
#endif

/* Rows y and y + 1 (`top`, `bottom`), columns x0..<x1 (even), into the planes at `out`. */
__attribute__((always_inline)) static inline void convert_row_pair(const uint32_t *restrict top, const uint32_t *restrict bottom, int width, int height,
                                    int x0, int x1, int y, uint8_t *restrict out) {
    uint8_t *restrict luma = out;
    uint8_t *restrict u_plane = out + (long)width * height;
    uint8_t *restrict v_plane = u_plane + (long)(width / 2) * (height / 2);
    int half = width / 2;
    /* Luma of both rows: one independent expression per pixel (vectorized). */
    for (int row = 0; row < 2; row++) {
        const uint32_t *source = row ? bottom : top;
        uint8_t *target = luma + (long)(y + row) * width;
        for (int x = x0; x < x1; x++) {
            uint32_t p = source[x];
            int32_t r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF;
            target[x] = (uint8_t)((Y_R * r + Y_G * g + Y_B * b + (16 << 16) + 32768) >> 16);
        }
    }
    /* Chroma: the sums of each 2x2 block. */
    uint8_t *u_row = u_plane + (long)(y / 2) * half, *v_row = v_plane + (long)(y / 2) * half;
    for (int x = x0 / 2; x < x1 / 2; x++) {
        uint32_t a = top[2 * x], b = top[2 * x + 1], c = bottom[2 * x], d = bottom[2 * x + 1];
        int32_t r = (int32_t)((a & 0xFF) + (b & 0xFF) + (c & 0xFF) + (d & 0xFF));
        int32_t g = (int32_t)(((a >> 8) & 0xFF) + ((b >> 8) & 0xFF) + ((c >> 8) & 0xFF) + ((d >> 8) & 0xFF));
        int32_t bl = (int32_t)(((a >> 16) & 0xFF) + ((b >> 16) & 0xFF) + ((c >> 16) & 0xFF) + ((d >> 16) & 0xFF));
        /* Sums of four pixels: divide by 4 inside the shift. */
        u_row[x] = (uint8_t)((U_R * r + U_G * g + U_B * bl + (512 << 16) + 131072) >> 18);
        v_row[x] = (uint8_t)((V_R * r + V_G * g + V_B * bl + (512 << 16) + 131072) >> 18);
    }
}

MIDIVIZ_CLONES
void midiviz_rgba_to_yuv420_region(const uint32_t *restrict rgba, int width, int height,
                                   int x0, int y0, int x1, int y1, uint8_t *restrict out) {
    for (int y = y0; y < y1; y += 2) {
        const uint32_t *top = rgba + (long)y * width;
        convert_row_pair(top, top + width, width, height, x0, x1, y, out);
    }
}

/* Premultiplied `top` over `bottom`, each channel rounded: Canvas.over's arithmetic, the
 * backdrop's pixel where the layer's alpha is 0. */
__attribute__((always_inline)) static inline uint32_t over(uint32_t top, uint32_t bottom) {
    uint32_t alpha = top >> 24, keep = 255 - alpha;
    uint32_t red_blue = (bottom & 0x00FF00FF) * keep + 0x00800080;
    red_blue = ((red_blue + ((red_blue >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF;
    uint32_t green_alpha = ((bottom >> 8) & 0x00FF00FF) * keep + 0x00800080;
    green_alpha = ((green_alpha + ((green_alpha >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF;
    uint32_t laid = top + (red_blue | green_alpha << 8);
    return alpha == 0 ? bottom : laid;
}

MIDIVIZ_CLONES
void midiviz_layer_over_to_yuv420_rows(const uint32_t *restrict layer, int layer_top, const uint32_t *restrict backdrop,
                                       int width, int height, int y0, int y1, uint32_t *restrict scratch, uint8_t *restrict out) {
    uint32_t *top = scratch, *bottom = scratch + width;
    for (int y = y0; y < y1; y += 2) {
        for (int row = 0; row < 2; row++) {
            const uint32_t *above = layer + (long)(layer_top + y + row) * width, *below = backdrop + (long)(y + row) * width;
            uint32_t *target = row ? bottom : top;
            for (int x = 0; x < width; x++) target[x] = over(above[x], below[x]);
        }
        convert_row_pair(top, bottom, width, height, 0, width, y, out);
    }
}

void midiviz_rgba_to_yuv420(const uint32_t *rgba, int width, int height, uint8_t *out) {
    midiviz_rgba_to_yuv420_region(rgba, width, height, 0, 0, width, height, out);
}

void midiviz_unpremultiply(const uint32_t *in, uint32_t *out, long count) {
    for (long i = 0; i < count; i++) {
        uint32_t pixel = in[i], alpha = pixel >> 24;
        if (alpha == 255) { out[i] = pixel; continue; }
        if (alpha == 0) { out[i] = 0; continue; }
        uint32_t r = pixel & 0xFF, g = (pixel >> 8) & 0xFF, b = (pixel >> 16) & 0xFF;
        r = (r * 255 + alpha / 2) / alpha; if (r > 255) r = 255;
        g = (g * 255 + alpha / 2) / alpha; if (g > 255) g = 255;
        b = (b * 255 + alpha / 2) / alpha; if (b > 255) b = 255;
        out[i] = r | g << 8 | b << 16 | alpha << 24;
    }
}
