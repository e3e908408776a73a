#define _GNU_SOURCE
#include <sched.h>
#include "midiviz_sched.h"

int midiviz_affinity_cpu_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_COUNT(&set);
}
