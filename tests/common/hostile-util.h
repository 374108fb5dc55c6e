/* hostile-util.h: what the tests of hostile inputs (issue 28) share: each case in a subprocess,
 * so that a signal fails the test instead of ending the program and a hang turns into a failure
 * after a time limit no result depends on; the peak resident set, checked in the plain build
 * only (the sanitizers hold freed memory in quarantine and add their shadow); files of a test
 * in a temporary folder. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A hang becomes a failure after this long (µs). */
#define HOSTILE_WATCHDOG (G_USEC_PER_SEC * 300)

/* At the top of a test function: runs the test again in a subprocess and checks that it
 * passed, then returns; in the subprocess, goes on with the test. */
#define HOSTILE_IN_SUBPROCESS()                                                     \
  G_STMT_START {                                                                    \
    if (!g_test_subprocess ())                                                      \
      {                                                                             \
        g_test_trap_subprocess (NULL, HOSTILE_WATCHDOG,                             \
                                G_TEST_SUBPROCESS_INHERIT_STDERR);                  \
        g_test_trap_assert_passed ();                                               \
        return;                                                                     \
      }                                                                             \
  } G_STMT_END

/* TRUE in a build without AddressSanitizer. */
gboolean hostile_plain_build    (void);
/* Prints the peak resident set of this process (a "# " line on stderr: a subprocess's test
 * messages are not shown) and, in the plain build, checks it is at most @limit_mib MiB. */
void     hostile_assert_peak_rss (guint64 limit_mib, const char *what);
/* Writes @bytes as @name in a new temporary folder; returns the path. */
char    *hostile_write_temp     (GBytes *bytes, const char *name);
/* Removes a file hostile_write_temp() made, and its folder. */
void     hostile_remove_temp    (const char *path);

G_END_DECLS
