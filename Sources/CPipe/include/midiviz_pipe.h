#ifndef MIDIVIZ_PIPE_H
#define MIDIVIZ_PIPE_H
#include <stddef.h>

/* vmsplice(2) without blocking: puts up to `count` bytes from `bytes` into the pipe `fd` by
 * reference to their pages, without copying them. The pages stay the pipe's until its reader
 * has read them, so the caller must not change them until then. Returns the bytes taken, or -1
 * with errno (EAGAIN: the pipe is full; EINVAL or ENOSYS: no splicing here, write instead). */
long midiviz_vmsplice(int fd, const void *bytes, size_t count);

#endif
