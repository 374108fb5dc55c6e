/* jvms-history-summary-private.h: what the stages of the summary share; not installed, not API.
 *
 * The summary levels and change lists (design: docs/state-history.md, "Summary levels and change
 * lists"; on-disk layout: jvms-history-format.h) are built and read in stages, one file each:
 *
 *   jvms-history-summary-codec.c      the bucket and change encodings (the blob payloads), and
 *                                     the runs of a blob decoded for a query
 *   jvms-history-summary-cascade.c    the builder: changes into level k0, buckets up the levels,
 *                                     runs packed into blobs
 *   jvms-history-summary-directory.c  the directory of runs (written at close, loaded at open)
 *                                     and the blobs it points to, read through the node cache
 *   jvms-history-summary-columns.c    the column combiner: one row of a query from the
 *                                     intervals, the change list or the levels
 *   jvms-history-summary-pool.c       the rows of a complete history spread over the cores
 *   jvms-history-summary-query.c      jvms_history_query_summary*: checks, level, dispatch
 *
 * Only those files include this header, so its inline helpers keep short names. What the rest of
 * the library calls (the builder's add and finish, the directory's load) is declared in
 * jvms-history-private.h. */
#pragma once

#include "jvms-history-private.h"

#include <math.h>

G_BEGIN_DECLS

/* ---- levels and values, shared by the builder and the queries ---- */

#define N_LEVELS       JVMS_SUMMARY_N_LEVELS
#define CHANGES        JVMS_SUMMARY_LEVEL_CHANGES
#define SLOTS          4

/* Change list entries: the low 3 bits of the first varint (format in jvms-history-format.h). */
#define CHG_SMALL_INTS 6u /* codes 0..5: the integers 0..5 */
#define CHG_NULL       6u
#define CHG_ESCAPE     7u /* a value follows */
#define CHG_BIG_DELTA  ((guint64) 1 << 60)
#define CHG_MAX_BYTES  40u /* two varints and a value */
#define BUCKET_MAX_BYTES 128u /* an encoded bucket: three varints, a flag byte, six values */

/* Bucket flags (the byte after a bucket's index delta). */
#define F_INSIDE       1u
#define F_AT_START     2u
#define F_NUMERIC      4u
#define F_DOM_LAST     8u
#define F_DOM_FIRST    16u

static inline guint
level_shift (guint k)
{
  return JVMS_SUMMARY_BASE_SHIFT + k * JVMS_SUMMARY_LEVEL_SHIFT;
}

static inline gint64
sat_add (gint64 a, gint64 b)
{
  return a > G_MAXINT64 - b ? G_MAXINT64 : a + b;
}

static inline gint64
bucket_start (gint64 index, guint shift)
{
  return (gint64) ((guint64) index << shift);
}

static inline gint64
bucket_end (gint64 index, guint shift)
{
  return sat_add (bucket_start (index, shift), (gint64) 1 << shift);
}

typedef JvmsRawValue RV;

static inline gboolean
rv_eq (RV a, RV b)
{
  return jvms_raw_value_equal (a.type, a.bits, b.type, b.bits);
}

static inline gboolean
rv_numeric (RV v, double *out)
{
  if (v.type == JVMS_VALUE_INT)
    *out = (double) (gint64) v.bits;
  else if (v.type == JVMS_VALUE_DOUBLE)
    memcpy (out, &v.bits, 8);
  else
    return FALSE;
  return !isnan (*out);
}

/* Durations of up to SLOTS values: approximate "held longest". */
typedef struct
{
  RV     v[SLOTS];
  gint64 d[SLOTS];
  guint  n;
} Slots;

static inline void
slots_add (Slots *s, RV v, gint64 d)
{
  for (guint i = 0; i < s->n; i++)
    if (rv_eq (s->v[i], v))
      {
        s->d[i] += d;
        return;
      }
  if (s->n < SLOTS)
    {
      s->v[s->n] = v;
      s->d[s->n++] = d;
      return;
    }
  guint m = 0;
  for (guint i = 1; i < SLOTS; i++)
    if (s->d[i] < s->d[m])
      m = i;
  if (s->d[m] < d)
    {
      s->v[m] = v;
      s->d[m] = d;
    }
}

/* The tie rule of JvmsSummaryCell.dominant (jvms-history.h): of values that held equally long,
 * the integers 0..14 in increasing order, then null, then (16) the one met first. */
static inline guint
rv_tie_rank (RV v)
{
  if (v.type == JVMS_VALUE_INT && v.bits < 15)
    return (guint) v.bits;
  return v.type == JVMS_VALUE_NULL ? 15 : 16;
}

/* The value held longest, by the tie rule; @fallback when none was added. Slots are filled in
 * time order, so the first of equal rank was met first. */
static inline RV
slots_best (const Slots *s, RV fallback)
{
  if (s->n == 0)
    return fallback;
  guint b = 0;
  for (guint i = 1; i < s->n; i++)
    if (s->d[i] > s->d[b] ||
        (s->d[i] == s->d[b] && rv_tie_rank (s->v[i]) < rv_tie_rank (s->v[b])))
      b = i;
  return s->v[b];
}

static inline void
minmax_add (double *mn, double *mx, double v)
{
  if (isnan (*mn) || v < *mn)
    *mn = v;
  if (isnan (*mx) || v > *mx)
    *mx = v;
}

/* ---- the directory (jvms-history-summary-directory.c) ---- */

/* One directory entry as held in memory (JvmsSummaryDirEntry on disk). */
typedef struct
{
  guint32 attribute, level;
  gint64  first, last;
  guint64 offset;
  guint32 csize, n;
} DirEntry;

/* The directory as loaded at open: the read side of the summary. */
struct _JvmsSummaryIndex
{
  guint     n_attrs;
  gint8    *k0;      /* per attribute, -1 none */
  DirEntry *dir;
  guint     n_dir;
  guint    *first;   /* per attribute: its first entry; first[n_attrs] = n_dir */
};

/* ---- the codec (jvms-history-summary-codec.c) ---- */

/* A bucket: what the cascade encodes when it completes one, and what a query decodes. */
typedef struct
{
  gint64 index;
  gint64 f, l;
  RV     before, vf, vl, dom;
  double min, max;
  guint8 flags;
} Bucket;

/* A decoded blob: its runs and their buckets (node->buckets points at the Blob). */
typedef struct
{
  guint32       attr, level;
  guint         n;
  /* The run's encoded bytes, decoded by jvms_summary_blob_run or _changes when a query reads that run:
   * a blob packs the runs of many attributes, and a query wants one of them. Decoded buckets
   * take about 10 times the encoded size, decoded changes about 8 times: a blob decoded whole
   * on every cache miss was most of a zoomed view's frame (allocating, faulting in and filling
   * the changes of every attribute in it), and cached decoded, the 200 rows of a view over a
   * long trace would not fit the cache. */
  const guint8 *data;
  guint32       len;
  gint64        first_index; /* change lists: the first change's time */
} Run;

/* A decoded change: at @t the value became @v. */
typedef struct
{
  gint64 t;
  RV     v;
} Change;

typedef struct
{
  guint   n_runs;
  Run    *runs;
  guint8 *bytes; /* the payload, which the runs point into */
} Blob;

guint8  *jvms_summary_put_value     (guint8 *p, RV v);
/* Encodes one change at @p (at most CHG_MAX_BYTES): @first of its run, else @delta ns (>= 1)
 * after the previous change. Inline: the builder writes one for every interval. */
static inline guint8 *
change_put (guint8 *p, gboolean first, guint64 delta, RV v)
{
  guint64 code = v.type == JVMS_VALUE_INT && v.bits < CHG_SMALL_INTS ? v.bits
               : v.type == JVMS_VALUE_NULL ? CHG_NULL : CHG_ESCAPE;
  if (first)
    p = jvms_varint_put (p, code);
  else if (delta < CHG_BIG_DELTA)
    p = jvms_varint_put (p, delta << 3 | code);
  else
    {
      p = jvms_varint_put (p, code);
      p = jvms_varint_put (p, delta);
    }
  if (code == CHG_ESCAPE)
    p = jvms_summary_put_value (p, v);
  return p;
}
guint8  *jvms_summary_bucket_put    (guint8 *p, const Bucket *b, gboolean first, gint64 prev_index,
                                     guint k);
void     jvms_summary_run_put       (GByteArray *blob, guint32 attr, guint32 k, gint64 first,
                                     guint n, const GByteArray *items);
/* @e's run in its blob @n, decoded into @scratch (Bucket, or Change for a change list): NULL
 * (CORRUPT) when the blob lacks it or it does not decode. */
const Bucket  *jvms_summary_blob_run     (JvmsHistory *h, JvmsNode *n, const DirEntry *e,
                                          GArray *scratch, guint *n_buckets, GError **error);
const Change  *jvms_summary_blob_changes (JvmsHistory *h, JvmsNode *n, const DirEntry *e,
                                          GArray *scratch, guint *n_changes, GError **error);

/* ---- the directory's blobs (jvms-history-summary-directory.c) ---- */

/* The directory table for close(): @dir (DirEntry) sorted in place, @finest[a] the finest level
 * of attribute a or -1. */
GBytes        *jvms_summary_directory_write (GArray *dir, const gint8 *finest, guint n_attrs);
/* The blob holding @e's run, read through the cache: a new reference, or NULL. */
JvmsNode      *jvms_summary_get_blob        (JvmsHistory *h, const DirEntry *e, GError **error);

/* ---- columns (jvms-history-summary-columns.c) ---- */

/* How long each value held in a column. The small integers and null, which state codes are,
 * add up by index without a search: a row read from a change list adds up to about 16 changes
 * a column, and searching the slots (a mispredicted branch a change, as states alternate) was
 * most of its cost. Other values go to the slots. */
#define DIRECT 16 /* the integers 0..14, and null */

typedef struct
{
  gint64 d[DIRECT]; /* zero where the mask has no bit: only those are cleared */
  guint  mask;
  Slots  slots;
} Durations;

typedef struct
{
  gboolean  any, mixed;
  RV        first;
  Durations slots;
  double   min, max;
  gboolean bound;  /* min/max widened to a cut bucket's (JVMS_SUMMARY_QUERY_RANGE_BOUND) */
  /* cut pieces whose min/max is not known exactly: refined at the end if they matter */
  guint    n_uncertain;
  gint64   us[2], ue[2], ubs[2]; /* the piece, and its bucket's start */
  RV       uvf[2];               /* the value at that bucket's start */
  double   umin[2], umax[2];
} Col;

/* Column c covers [cs(c), cs(c + 1)); one narrower than 1 ns covers the instant at its start. */
typedef struct
{
  gint64  t0, t1;
  guint   n;
  gint64 *cs; /* n + 1 column starts, computed once per query (128-bit divisions are slow) */
} Cols;

static inline gint64
col_start (const Cols *k, guint c)
{
  return k->cs[c];
}

static inline gint64
col_end (const Cols *k, guint c)
{
  gint64 s = k->cs[c], e = k->cs[c + 1];
  return e == s ? s + 1 : e;
}

/* A stretch of one value, read from a change list. */
typedef struct
{
  gint64  start, end;
  guint64 bits;
  guint8  type;
} Seg;

/* Intervals of the rows read directly, gathered in one walk of the tree: (row, interval). */
typedef struct
{
  gint64  start, end;
  guint64 bits;
  guint32 row;
  guint8  type;
} RowIv;

/* What one thread needs to compute rows: kept by the thread from query to query, since the
 * columns alone are 400 KB at 1,920 columns and fresh memory costs a page fault per page. */
typedef struct
{
  GArray *segs, *scratch, *changes;
  Col    *cols;
  guint8 *cut;    /* a row from a change list: what each column is (jvms-history-summary-columns.c) */
  guint   n_cols;
} RowBuffers;

/* A row asked for its maximum alone (JVMS_SUMMARY_QUERY_MAX_ONLY) from a change list, folded
 * into its cells as the changes are decoded (jvms-history-summary-codec.c): a bar lane's row
 * wants only each column's maximum, and storing each change to read it back was most of its
 * cost. Columns at least 1 ns wide. Cells start empty (cell_empty); a column that a value held
 * in gets flags 0 and that value in its max, as col_max gives. */
typedef struct
{
  const Cols      *k;
  JvmsSummaryCell *row;
  gint64           lo_t, hi_t; /* the window, within the history */
  guint            c;          /* the column holding at */
  gint64           at;         /* where the value x began (lo_t at first) */
  double           x;          /* the value held from at, as col_max takes it */
} MaxFold;

/* Folds @e's change list run into @f: changes up to f->lo_t set f->x, those before f->hi_t end
 * a segment each. FALSE (CORRUPT) as jvms_summary_blob_changes. */
gboolean jvms_summary_blob_fold_max      (JvmsHistory *h, JvmsNode *n, const DirEntry *e,
                                          MaxFold *f, GError **error);
/* Ends the segment held since f->at at @t. */
void     jvms_summary_max_fold_end       (MaxFold *f, gint64 t);

void     jvms_summary_row_from_intervals (JvmsHistory *h, const Cols *k, const RowIv *iv,
                                          guint n_iv, Col *cols, JvmsSummaryCell *row);
/* One row of a complete history, from the levels or the change list: FALSE when a blob it
 * reads is damaged. */
gboolean jvms_summary_complete_row       (JvmsHistory *h, const Cols *k, guint32 attr, gint level,
                                          JvmsSummaryQueryFlags flags, RowBuffers *b,
                                          JvmsSummaryCell *row, GError **error);

/* What @flags leave out of a row, cleared whichever way it was read: min/max without the
 * range (NO_RANGE); the dominant, MIXED and min with the maximum only (MAX_ONLY). */
static inline void
jvms_summary_row_strip (JvmsSummaryCell *row, guint n, JvmsSummaryQueryFlags flags)
{
  if (flags & JVMS_SUMMARY_QUERY_NO_RANGE)
    for (guint c = 0; c < n; c++)
      row[c].min = row[c].max = NAN;
  else if (flags & JVMS_SUMMARY_QUERY_MAX_ONLY)
    for (guint c = 0; c < n; c++)
      {
        row[c].dominant = JVMS_VALUE_INIT_NULL;
        row[c].flags &= ~JVMS_SUMMARY_MIXED;
        row[c].min = NAN;
      }
}

/* ---- the pool (jvms-history-summary-pool.c) ---- */

/* Rows @attributes of a complete history at @level, each with @row_flags[i] (or @flags when
 * NULL), into @cells, on the calling thread and the pool's helpers. */
gboolean jvms_summary_complete_rows      (JvmsHistory *h, const Cols *k,
                                          const JvmsAttribute *attributes, guint n_attributes,
                                          gint level, const JvmsSummaryQueryFlags *row_flags,
                                          JvmsSummaryQueryFlags flags, JvmsSummaryCell *cells,
                                          GError **error);

G_END_DECLS
