#ifndef MIDIVIZ_YUV_H
#define MIDIVIZ_YUV_H
#include <stdint.h>

/* RGBA8 (bytes R G B A per pixel) to planar yuv420p, BT.709, limited range: Y plane, then U and
 * V at quarter size; chroma is the average of each 2x2 block. Width and height must be even.
 * Plain loops over independent pixels, written for the compiler to vectorize. */
void midiviz_rgba_to_yuv420(const uint32_t *rgba, int width, int height, uint8_t *out);

/* The same for the rectangle x0..<x1, y0..<y1 only (all even, inside the frame): the rest of
 * `out` is left as it is. */
void midiviz_rgba_to_yuv420_region(const uint32_t *rgba, int width, int height,
                                   int x0, int y0, int x1, int y1, uint8_t *out);

/* Rows y0..<y1 (even) of a frame that are `layer` (premultiplied, as the canvas holds it; its row
 * layer_top + y lies over row y) laid over `backdrop` (a frame's size), converted as
 * midiviz_rgba_to_yuv420_region converts the composed rows, over the whole width, without the
 * composed frame being written: two rows at a time in `scratch` (2 x width pixels). */
void midiviz_layer_over_to_yuv420_rows(const uint32_t *layer, int layer_top, const uint32_t *backdrop, int width, int height,
                                       int y0, int y1, uint32_t *scratch, uint8_t *out);

/* Premultiplied RGBA8 (as the canvas holds it) to straight RGBA8 (as PNG, ProRes and VP9 carry
 * alpha): each colour divided by its alpha, rounded; a fully transparent pixel becomes 0. */
void midiviz_unpremultiply(const uint32_t *in, uint32_t *out, long count);

#endif
