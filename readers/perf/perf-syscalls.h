/* perf-syscalls.h: x86_64 system call names by number, generated at build time from the
 * installed kernel headers (gen-syscalls.py). */
#pragma once

#include <glib.h>

/* The name of syscall @id ("read"), or NULL when unknown. */
const char *perf_syscall_name (gint64 id);
