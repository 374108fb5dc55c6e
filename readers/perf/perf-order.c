/* perf-order.c: see perf-order.h. Sorting is a stable natural merge sort: a round holds one
 * ascending run per CPU buffer plus the sorted leftover, so merging runs costs O(n log runs). */
#include "perf-order.h"

#include <string.h>

PerfChunk *
perf_chunk_ref (PerfChunk *chunk)
{
  chunk->refcount++;
  return chunk;
}

void
perf_chunk_unref (PerfChunk *chunk)
{
  if (chunk == NULL || --chunk->refcount > 0)
    return;
  if (chunk->live_bytes != NULL)
    *chunk->live_bytes -= chunk->size;
  g_free (chunk->data);
  g_free (chunk);
}

void
perf_order_init (PerfOrder *self)
{
  memset (self, 0, sizeof *self);
  self->lag = PERF_ORDER_LAG_NS;
}

void
perf_order_clear (PerfOrder *self)
{
  for (gsize i = self->cursor; i < self->n; i++)
    perf_chunk_unref (self->entries[i].chunk);
  g_free (self->entries);
  g_free (self->tmp);
  memset (self, 0, sizeof *self);
}

/* Drops the delivered prefix so that held entries start at 0. */
static void
compact (PerfOrder *self)
{
  if (self->cursor == 0)
    return;
  memmove (self->entries, self->entries + self->cursor, (self->n - self->cursor) * sizeof (PerfEntry));
  self->n -= self->cursor;
  self->ready_end -= MIN (self->ready_end, self->cursor);
  self->cursor = 0;
}

void
perf_order_push (PerfOrder *self, const PerfEntry *entry)
{
  if (self->cursor > 0 && self->cursor == self->ready_end)
    compact (self);
  if (self->n == self->cap)
    {
      if (self->cursor > 0)
        compact (self);
      if (self->n == self->cap)
        {
          self->cap = MAX (self->cap * 2, 1024);
          self->entries = g_renew (PerfEntry, self->entries, self->cap);
        }
    }
  self->entries[self->n++] = *entry;
  if (entry->time < self->released)
    self->lag = MIN (MAX (self->lag, 2 * (self->released - entry->time)), PERF_ORDER_MAX_LAG_NS);
  if (entry->time > self->max_time)
    self->max_time = entry->time;
}

static void
merge (const PerfEntry *a, gsize na, const PerfEntry *b, gsize nb, PerfEntry *out)
{
  gsize i = 0, j = 0, k = 0;
  while (i < na && j < nb)
    out[k++] = b[j].time < a[i].time ? b[j++] : a[i++];
  memcpy (out + k, a + i, (na - i) * sizeof *a);
  k += na - i;
  memcpy (out + k, b + j, (nb - j) * sizeof *b);
}

/* Sorts entries [from, n) by time, stably. */
static void
sort_held (PerfOrder *self, gsize from)
{
  PerfEntry *a = self->entries + from;
  gsize n = self->n - from;
  if (n < 2)
    return;

  g_autofree gsize *bounds = NULL;
  gsize n_runs = 0, cap_runs = 0;
  for (gsize i = 0; i < n;)
    {
      gsize j = i + 1;
      while (j < n && a[j].time >= a[j - 1].time)
        j++;
      if (n_runs + 2 > cap_runs)
        {
          cap_runs = MAX (cap_runs * 2, 16);
          bounds = g_renew (gsize, bounds, cap_runs);
        }
      bounds[n_runs++] = i;
      i = j;
    }
  if (n_runs == 1)
    return;
  bounds[n_runs] = n;

  if (self->tmp_cap < n)
    {
      g_free (self->tmp);
      self->tmp_cap = MAX (n, self->tmp_cap * 2);
      self->tmp = g_new (PerfEntry, self->tmp_cap);
    }
  PerfEntry *src = a, *dst = self->tmp;
  while (n_runs > 1)
    {
      gsize out_runs = 0;
      for (gsize r = 0; r < n_runs; r += 2)
        {
          gsize start = bounds[r];
          if (r + 1 < n_runs)
            {
              gsize mid = bounds[r + 1], end = bounds[r + 2];
              merge (src + start, mid - start, src + mid, end - mid, dst + start);
            }
          else
            memcpy (dst + start, src + start, (bounds[r + 1] - start) * sizeof *src);
          bounds[out_runs++] = start;
        }
      bounds[out_runs] = n;
      n_runs = out_runs;
      PerfEntry *t = src;
      src = dst;
      dst = t;
    }
  if (src != a)
    memcpy (a, src, n * sizeof *a);
}

/* Releases held entries up to @limit (inclusive) in time order. */
static void
release_until (PerfOrder *self, guint64 limit)
{
  compact (self);
  sort_held (self, self->ready_end);
  gsize lo = self->ready_end, hi = self->n;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (self->entries[mid].time <= limit)
        lo = mid + 1;
      else
        hi = mid;
    }
  self->ready_end = lo;
  if (lo > 0)
    self->released = MAX (self->released, self->entries[lo - 1].time);
}

void
perf_order_round (PerfOrder *self)
{
  if (self->ready_end < self->n && self->next_flush > self->lag)
    release_until (self, self->next_flush - self->lag);
  self->next_flush = self->max_time;
}

void
perf_order_flush_all (PerfOrder *self)
{
  release_until (self, G_MAXUINT64);
}

gboolean
perf_order_is_full (PerfOrder *self)
{
  return self->n - self->ready_end >= PERF_ORDER_MAX_ENTRIES;
}

void
perf_order_release_half (PerfOrder *self)
{
  compact (self);
  sort_held (self, self->ready_end);
  self->ready_end += (self->n - self->ready_end + 1) / 2;
  self->released = MAX (self->released, self->entries[self->ready_end - 1].time);
}

PerfEntry *
perf_order_pop (PerfOrder *self)
{
  if (self->cursor >= self->ready_end)
    return NULL;
  return &self->entries[self->cursor++];
}
