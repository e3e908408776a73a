#ifndef MIDIVIZ_MALLOC_H
#define MIDIVIZ_MALLOC_H

/* Gives the pages of memory freed so far back to the system, in every malloc arena (glibc's
 * malloc_trim(3) with no padding). Returns 1 when some memory was released, 0 when none. */
int midiviz_release_free_memory(void);

#endif
