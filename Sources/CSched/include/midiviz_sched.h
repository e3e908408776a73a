#ifndef MIDIVIZ_SCHED_H
#define MIDIVIZ_SCHED_H

/* The number of CPUs the calling thread may run on: CPU_COUNT of its sched_getaffinity(2) mask
 * (what taskset, Slurm's task/affinity and docker --cpuset-cpus narrow). Returns -1 with errno
 * when the mask cannot be read (more CPUs than a cpu_set_t holds: EINVAL). */
int midiviz_affinity_cpu_count(void);

#endif
