#include "midiviz_malloc.h"

#include <malloc.h>

int midiviz_release_free_memory(void) { return malloc_trim(0); }
