#include "midiviz_png.h"
#include "midiviz_yuv.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct error_state {
    jmp_buf jump;
    char *message;
    size_t size;
};

static void on_error(png_structp png, png_const_charp message) {
    struct error_state *state = png_get_error_ptr(png);
    snprintf(state->message, state->size, "libpng: %s", message);
    longjmp(state->jump, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message; /* warnings are not errors; keep the terminal quiet */
}

static int write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                     int level, int alpha, char *error, size_t error_size);

int midiviz_png_write_rgba(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                           int level, char *error, size_t error_size) {
    return write_png(path, rgba, width, height, level, 0, error, error_size);
}

int midiviz_png_write_premultiplied_rgba(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                                         int level, char *error, size_t error_size) {
    return write_png(path, rgba, width, height, level, 1, error, error_size);
}

static int write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                     int level, int alpha, char *error, size_t error_size) {
    struct error_state state;
    state.message = error;
    state.size = error_size;
    if (error_size > 0) error[0] = 0;

    FILE *file = fopen(path, "wb");
    if (!file) {
        snprintf(error, error_size, "%s", strerror(errno));
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        snprintf(error, error_size, "libpng: out of memory");
        png_destroy_write_struct(&png, NULL);
        fclose(file);
        return -1;
    }
    /* One RGB (or straight RGBA) row, filled from the input: cheaper than libpng's transforms. */
    const int channels = alpha ? 4 : 3;
    uint8_t *row = malloc((size_t)width * channels);
    if (!row) {
        snprintf(error, error_size, "out of memory");
        png_destroy_write_struct(&png, &info);
        fclose(file);
        return -1;
    }
    /* Volatile: read after a longjmp. */
    FILE *volatile open_file = file;
    uint8_t *volatile row_buffer = row;
    if (setjmp(state.jump)) {
        png_destroy_write_struct(&png, &info);
        fclose(open_file);
        free(row_buffer);
        return -1;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, width, height, 8, alpha ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, level >= 6 ? PNG_ALL_FILTERS : (level == 0 ? PNG_FILTER_NONE : PNG_FILTER_UP));
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = rgba + (size_t)y * width * 4;
        if (alpha) {
            midiviz_unpremultiply((const uint32_t *)source, (uint32_t *)row, width);
        } else {
            for (uint32_t x = 0; x < width; x++) {
                row[3 * x] = source[4 * x];
                row[3 * x + 1] = source[4 * x + 1];
                row[3 * x + 2] = source[4 * x + 2];
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (fclose(file) != 0) {
        snprintf(error, error_size, "%s", strerror(errno));
        return -1;
    }
    return 0;
}
