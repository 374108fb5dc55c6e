/* perf-order.h: the time merge of the record stream. perf writes each CPU's ring buffer in
 * order but interleaves the buffers in rounds; like perf's ordered events, records of a round
 * are held until the FINISHED_ROUND after it, then those not later than the previous round's
 * latest time are released in time order. The window is bounded: past PERF_ORDER_MAX_ENTRIES
 * held records the oldest half is released early.
 *
 * perf's rule alone leaves a few events late in VMs (15 of 400,000 in one file, by up to 48 us):
 * their time was taken well before they reached the ring buffer. Releases therefore also lag
 * the round's limit by PERF_ORDER_LAG_NS, doubled past any lateness seen, up to 1 s.
 */
#pragma once

#include <glib.h>

#define PERF_ORDER_MAX_ENTRIES (1u << 19)
#define PERF_ORDER_LAG_NS      G_GUINT64_CONSTANT (10000000)
#define PERF_ORDER_MAX_LAG_NS  G_GUINT64_CONSTANT (1000000000)

/* A decompressed block of a -z stream; records held in the queue point into it. */
typedef struct
{
  guint   refcount;
  gsize   size;
  guint8 *data;
  gsize  *live_bytes; /* the reader's total of chunk bytes alive, kept up to date on free */
} PerfChunk;

PerfChunk *perf_chunk_ref   (PerfChunk *chunk);
void       perf_chunk_unref (PerfChunk *chunk);

typedef struct
{
  guint64       time;
  const guint8 *record;
  PerfChunk    *chunk;  /* owns @record when not NULL */
  guint64       offset; /* in the file: the record, or the compressed record it came from */
} PerfEntry;
G_STATIC_ASSERT (sizeof (PerfEntry) == 32);

typedef struct
{
  PerfEntry *entries;
  gsize      n, cap;
  gsize      cursor;    /* next entry to deliver */
  gsize      ready_end; /* entries before it are released, in time order */
  PerfEntry *tmp;
  gsize      tmp_cap;
  guint64    max_time;
  guint64    next_flush;
  guint64    lag;
  guint64    released;   /* the latest time released so far */
} PerfOrder;

void     perf_order_init        (PerfOrder       *self);
void     perf_order_clear       (PerfOrder       *self);
void     perf_order_push        (PerfOrder       *self,
                                 const PerfEntry *entry);
/* At FINISHED_ROUND. */
void     perf_order_round       (PerfOrder       *self);
/* At the end of the stream: releases everything. */
void     perf_order_flush_all   (PerfOrder       *self);
/* Whether the window is full. */
gboolean perf_order_is_full     (PerfOrder       *self);
/* Releases the oldest half of the held entries. */
void     perf_order_release_half (PerfOrder      *self);
/* The next released entry (the caller takes its chunk reference), or NULL. */
PerfEntry *perf_order_pop       (PerfOrder       *self);
