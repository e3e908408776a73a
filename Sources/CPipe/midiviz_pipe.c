#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/uio.h>
#include "midiviz_pipe.h"

long midiviz_vmsplice(int fd, const void *bytes, size_t count) {
    struct iovec piece = { (void *)bytes, count };
    return (long)vmsplice(fd, &piece, 1, SPLICE_F_NONBLOCK);
}
