/* ctf-synthetic.h: a small LTTng-shaped CTF trace written by the tests, for what the real test
 * traces do not hold (syscalls, pid/tid context, two CPUs, discarded events). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_CTF_SYNTHETIC_UUID "2a1bda29-ffc3-e248-8053-81ccaf830d2f"

/* Writes `metadata`, `channel0_0` (CPU 0) and `channel0_1` (CPU 1) into @dir. */
void ctf_synthetic_write (const char *dir);
/* The same, with CPU 0's first packet ending at @first_packet_end ns (7000 above): past 8000,
 * it overlaps the next packet as lttng-modules 2.1 packets do. */
void ctf_synthetic_write_with_end (const char *dir, guint64 first_packet_end);

/* The same trace, its metadata declaring @n_extra more event classes (ids 100 and up, never
 * used by an event): a large but well-formed metadata. */
void ctf_synthetic_write_with_classes (const char *dir, guint n_extra);

G_END_DECLS
