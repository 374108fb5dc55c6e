/* chain.c: a hand-off chain A -> B -> C through pipes, in one process without a JVM, for the
 * critical path of a kernel-only trace (test-causality.py, case kernel-chain). A computes, then
 * writes a byte that wakes B; B computes and wakes C the same way; C computes on each byte and
 * answers A, which waits for that answer before its next round. So C's path goes back through
 * B to A, round after round, whatever the scheduler does: without the answer, A could run
 * ahead on a loaded machine, B then found its bytes waiting and never waited for A, and the
 * path went C, B, C, B (seen in CI). Prints the three thread ids and the
 * CLOCK_MONOTONIC times (ns) the chain started and ended: "tids A B C" and "mono FROM TO". */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 60

static int ab[2], bc[2], ca[2];
static long tid_a, tid_b;

static void
work (long n)
{
  volatile long x = 0;
  for (long i = 0; i < n; i++)
    x += i;
}

static void *
thread_a (void *data)
{
  prctl (PR_SET_NAME, "chain-a");
  tid_a = syscall (SYS_gettid);
  char c = 'x';
  for (int i = 0; i < ROUNDS; i++)
    {
      /* C's answer to the round before: one round at a time. */
      if (i > 0 && read (ca[0], &c, 1) != 1)
        abort ();
      work (3000000);
      if (write (ab[1], &c, 1) != 1)
        abort ();
    }
  close (ab[1]);
  return NULL;
}

static void *
thread_b (void *data)
{
  prctl (PR_SET_NAME, "chain-b");
  tid_b = syscall (SYS_gettid);
  char c;
  while (read (ab[0], &c, 1) == 1)
    {
      work (2000000);
      if (write (bc[1], &c, 1) != 1)
        abort ();
    }
  close (bc[1]);
  return NULL;
}

static long long
mono_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
main (void)
{
  pthread_t a, b;
  char c;
  if (pipe (ab) != 0 || pipe (bc) != 0 || pipe (ca) != 0)
    return 1;
  prctl (PR_SET_NAME, "chain-c");
  long long from = mono_ns ();
  pthread_create (&b, NULL, thread_b, NULL);
  pthread_create (&a, NULL, thread_a, NULL);
  while (read (bc[0], &c, 1) == 1)
    {
      work (1000000);
      if (write (ca[1], &c, 1) != 1)
        abort ();
    }
  long long to = mono_ns ();
  pthread_join (a, NULL);
  pthread_join (b, NULL);
  printf ("tids %ld %ld %ld\nmono %lld %lld\n", tid_a, tid_b, (long) syscall (SYS_gettid), from, to);
  return 0;
}
