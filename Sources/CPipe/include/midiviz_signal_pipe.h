#ifndef MIDIVIZ_SIGNAL_PIPE_H
#define MIDIVIZ_SIGNAL_PIPE_H

/* The read end of the process's signal pipe, made on the first call (close-on-exec, both ends
 * non-blocking) and kept for the life of the process; -1 with errno if it cannot be made.
 * Call it from one thread (the main one) before routing any signal. */
int midiviz_signal_pipe(void);

/* Routes signal `number` to the signal pipe: its handler writes the number as one byte and does
 * nothing else (a handler may call only async-signal-safe functions), and the calling thread
 * stops blocking it, so that a mask inherited from the parent cannot hold it back. Returns 0, or
 * -1 with errno. */
int midiviz_route_signal_to_pipe(int number);

/* Gives signal `number` its default action again. Returns 0, or -1 with errno. */
int midiviz_restore_default_signal(int number);

#endif
