#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "midiviz_signal_pipe.h"

static int pipe_ends[2] = { -1, -1 };

static void write_signal_number(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    ssize_t written = write(pipe_ends[1], &byte, 1);
    (void)written; /* a full pipe already holds a signal to act on */
    errno = saved;
}

int midiviz_signal_pipe(void) {
    if (pipe_ends[0] < 0 && pipe2(pipe_ends, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    return pipe_ends[0];
}

int midiviz_route_signal_to_pipe(int number) {
    if (pipe_ends[1] < 0) {
        errno = EBADF;
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = write_signal_number;
    /* Required: a thread the signal lands on may be in a read that does not retry (Foundation's
     * availableData stops the process on EINTR). */
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(number, &action, NULL) != 0) return -1;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, number);
    int failed = pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    if (failed != 0) {
        errno = failed;
        return -1;
    }
    return 0;
}

int midiviz_restore_default_signal(int number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    return sigaction(number, &action, NULL);
}
