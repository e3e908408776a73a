/* The PNG limit of this machine, for scripts/bench: reads MAX frames spread evenly over those
 * midiviz wrote (so that sparse and dense parts of the song both count), holds them in memory, and writes them again with the same libpng shim (level 1,
 * Up filter) from THREADS threads with nothing else to do. Prints frames per second.
 *   png_limit THREADS MAX DIR */
#include <dirent.h>
#include <png.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "midiviz_png.h"

struct frame { unsigned char *rgba; unsigned width, height; };
static struct frame *frames;
static int frame_count, next_frame;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char out_dir[4096];

static void *worker(void *arg) {
    (void)arg;
    char path[4200], error[256];
    for (;;) {
        pthread_mutex_lock(&lock);
        int index = next_frame++;
        pthread_mutex_unlock(&lock);
        if (index >= frame_count) return NULL;
        snprintf(path, sizeof path, "%s/again_%06d.png", out_dir, index);
        if (midiviz_png_write_rgba(path, frames[index].rgba, frames[index].width, frames[index].height, 1, error, sizeof error) != 0) {
            fprintf(stderr, "%s\n", error);
            exit(1);
        }
        unlink(path);
    }
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: png_limit THREADS MAX DIR\n"); return 64; }
    int threads = atoi(argv[1]), max = atoi(argv[2]);
    if (threads < 1 || max < 1) { fprintf(stderr, "png_limit: THREADS and MAX must be positive\n"); return 64; }
    DIR *dir = opendir(argv[3]);
    if (!dir) { perror(argv[3]); return 66; }
    char **names = malloc(sizeof(char *) * 100000);
    int count = 0;
    for (struct dirent *entry; (entry = readdir(dir)) && count < 100000;)
        if (strstr(entry->d_name, ".png")) names[count++] = strdup(entry->d_name);
    closedir(dir);
    qsort(names, count, sizeof(char *), by_name);
    if (count > max) {
        for (int i = 0; i < max; i++) names[i] = names[(long)i * count / max];
        count = max;
    }
    frames = calloc((size_t)count, sizeof(struct frame));
    for (int i = 0; i < count; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", argv[3], names[i]);
        png_image image = {0};
        image.version = PNG_IMAGE_VERSION;
        if (!png_image_begin_read_from_file(&image, path)) { fprintf(stderr, "%s: %s\n", path, image.message); return 65; }
        image.format = PNG_FORMAT_RGBA;
        frames[i].rgba = malloc(PNG_IMAGE_SIZE(image));
        frames[i].width = image.width;
        frames[i].height = image.height;
        png_image_finish_read(&image, NULL, frames[i].rgba, 0, NULL);
    }
    frame_count = count;
    snprintf(out_dir, sizeof out_dir, "%s", argv[3]);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t ids[64];
    for (int t = 0; t < threads && t < 64; t++) pthread_create(&ids[t], NULL, worker, NULL);
    for (int t = 0; t < threads && t < 64; t++) pthread_join(ids[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    printf("%d %.3f %.1f\n", count, seconds, count / seconds);
    return 0;
}
