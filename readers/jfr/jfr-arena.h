/* jfr-arena.h: many small allocations freed together (decoded constants of a chunk, the strings
 * of the current event, a metadata's type table). */
#pragma once

#include <glib.h>

typedef struct _JfrArena JfrArena;

/* Blocks of 64 KiB. */
JfrArena  *jfr_arena_new       (void);
/* Blocks starting at @first bytes and doubling up to 64 KiB: for arenas that often stay small
 * (the type table of a tiny metadata record). */
JfrArena  *jfr_arena_new_sized (gsize       first);
void       jfr_arena_free      (JfrArena   *arena);
/* Frees everything but keeps one ordinary block for reuse. */
void       jfr_arena_reset     (JfrArena   *arena);
gpointer   jfr_arena_alloc     (JfrArena   *arena,
                                gsize       size);
gpointer   jfr_arena_alloc0    (JfrArena   *arena,
                                gsize       size);
char      *jfr_arena_strdup    (JfrArena   *arena,
                                const char *text,
                                gsize       len);
/* Bytes of the blocks the arena holds. */
gsize      jfr_arena_size      (const JfrArena *arena);
