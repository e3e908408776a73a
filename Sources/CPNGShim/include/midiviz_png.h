#ifndef MIDIVIZ_PNG_H
#define MIDIVIZ_PNG_H
#include <stddef.h>
#include <stdint.h>

/* Writes an opaque RGBA8 image (bytes R G B A per pixel, rows top to bottom) as an 8-bit RGB
 * PNG at `path`, with zlib `level` (0-9) and the Up filter (all filters for level >= 6).
 * libpng reports errors by longjmp; this function owns the setjmp, so callers never see it.
 * Returns 0 on success, or -1 with a message in `error` (NUL-terminated, at most error_size). */
int midiviz_png_write_rgba(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                           int level, char *error, size_t error_size);

/* The same with alpha: `rgba` is premultiplied (as the canvas holds it) and is written as an
 * 8-bit RGBA PNG with straight alpha, as PNG requires. */
int midiviz_png_write_premultiplied_rgba(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                                         int level, char *error, size_t error_size);

#endif
