/* jfr-arena.c: see jfr-arena.h. */
#include <string.h>

#include "jfr-arena.h"

#define ARENA_BLOCK (64 * 1024)

struct _JfrArena
{
  GSList *blocks;
  guint8 *pos;
  gsize   left;
  gsize   next;       /* size of the next ordinary block */
  gsize   last_size;  /* size of the newest block */
  gsize   total;      /* bytes of all blocks */
};

JfrArena *
jfr_arena_new_sized (gsize first)
{
  JfrArena *arena = g_new0 (JfrArena, 1);
  arena->next = CLAMP (first, 256, ARENA_BLOCK);
  return arena;
}

JfrArena *
jfr_arena_new (void)
{
  return jfr_arena_new_sized (ARENA_BLOCK);
}

void
jfr_arena_reset (JfrArena *arena)
{
  if (arena->blocks == NULL)
    return;
  /* the reader resets its event arena for every event: one ordinary block is kept */
  if (arena->blocks->next == NULL && arena->last_size <= ARENA_BLOCK)
    {
      arena->pos = arena->blocks->data;
      arena->left = arena->last_size;
      return;
    }
  g_slist_free_full (arena->blocks, g_free);
  arena->blocks = NULL;
  arena->pos = NULL;
  arena->left = 0;
  arena->total = 0;
}

void
jfr_arena_free (JfrArena *arena)
{
  if (arena == NULL)
    return;
  g_slist_free_full (arena->blocks, g_free);
  g_free (arena);
}

gpointer
jfr_arena_alloc (JfrArena *arena, gsize size)
{
  size = (size + 15) & ~(gsize) 15;
  if (size > arena->left)
    {
      gsize block = MAX (size, arena->next);
      arena->next = MIN (arena->next * 2, ARENA_BLOCK);
      guint8 *mem = g_malloc (block);
      arena->blocks = g_slist_prepend (arena->blocks, mem);
      arena->pos = mem;
      arena->left = block;
      arena->last_size = block;
      arena->total += block;
    }
  gpointer p = arena->pos;
  arena->pos += size;
  arena->left -= size;
  return p;
}

gpointer
jfr_arena_alloc0 (JfrArena *arena, gsize size)
{
  gpointer p = jfr_arena_alloc (arena, size);
  memset (p, 0, size);
  return p;
}

char *
jfr_arena_strdup (JfrArena *arena, const char *text, gsize len)
{
  char *s = jfr_arena_alloc (arena, len + 1);
  memcpy (s, text, len);
  s[len] = '\0';
  return s;
}

gsize
jfr_arena_size (const JfrArena *arena)
{
  return arena->total;
}
