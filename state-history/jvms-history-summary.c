/* jvms-history-summary.c: summary levels and the summary query, for drawing.
 *
 * Why: drawing 2,000 columns of an attribute over a whole trace must not read every interval.
 * Level k cuts time into buckets of width W_k = 2^(10 + k) ns. A bucket records, exactly,
 * the value before it, the value at its start, the first and last change strictly inside it
 * (f, l) and the value after the last change (vl), the exact min/max of the numeric values
 * held in it, and approximately the value held longest (dom). Only buckets holding a change
 * are stored, so between two stored buckets the value is constant.
 *
 * Building (same streaming pass as the tree): each attribute's first 64 intervals choose its
 * finest level k0, the first whose buckets span at least 8 mean interval durations: finer
 * levels would store about as many buckets as there are intervals, and a query that zooms
 * that far reads the intervals instead (few per column). 8 rather than 16: the mean of 15
 * exponential gaps is noisy, and a stream whose attributes all change at the same rate should
 * get one k0, or a zoomed-out query mixes level rows with (slow) interval rows. Changes feed level k0; a level-k
 * bucket, when complete, feeds level k + 1 as one record, so the cost per change is about
 * 1 + 1/2 + 1/4... bucket updates whatever the number of levels. Levels are 2 times apart
 * (format 3; 4 times in format 2): a row then reads at most 2 buckets a column on the levels,
 * and at most about 16 changes a column on a change list (W_k0 < 16 mean gaps), where 4 times
 * apart let a column hold up to 32 changes: the 100 M-interval bench's worst frames (columns
 * just finer than k0) cost half as much, for an index about 11 % larger. Complete buckets are
 * encoded into a small per-(attribute, level) buffer, flushed as an lz4 blob of about 4 KiB
 * (or earlier when all buffers together pass 32 MiB), so builder memory is bounded by the
 * number of attributes, not intervals; the blob directory (40 bytes per run) is the
 * exception, about 0.2 bytes per interval (a run per 170 to 240 intervals with thousands of
 * attributes, whose change runs are short).
 *
 * Change lists: every change of an attribute (time exactly, new value), the sparse finest
 * level. Rows whose columns are narrower than W_k0 read it: fewer than about W_k0 / mean gap
 * (8 to 16) changes of that attribute per column, where the tree, cut by time, would decode
 * every attribute's intervals in the window.
 *
 * Query (complete histories): for column width C >= W_k0, the coarsest level with W_k <= C.
 * Each stored bucket then lies in at most two columns. A column takes whole buckets as they
 * are; a bucket cut by a column boundary x gives each side a piece whose MIXED flag is still
 * exact ([start, x) is pure iff no change lies in (start, x), i.e. f >= x; [x, end) iff
 * l <= x) and whose known value (vf, vl) is a fair dominant candidate. Only such a cut piece's
 * min/max is unknown; it is read from the change list from the bucket's start (whose value
 * the bucket holds), and only when the bucket's min/max would widen the column's. For C < W_k0
 * the row comes from the change list. While the history is still being built, rows come from
 * the intervals of the tree (one walk for all of them), which costs what a range query over
 * the window costs. k0 is capped at 16.8 ms (K_CAP): a slow attribute still gets buckets that
 * fine, cheap since few of them hold a change. */
#include "jvms-history-private.h"

#include <math.h>
#include <stdlib.h>

gsize jvms_blob_frame (JvmsNodeEncoder *enc, const guint8 *payload, gsize usize, guint32 level,
                       guint32 n_items, gint64 start, gint64 end);

#define N_LEVELS       JVMS_SUMMARY_N_LEVELS
#define CHANGES        JVMS_SUMMARY_LEVEL_CHANGES
#define PROBE          64
G_STATIC_ASSERT ((PROBE & (PROBE - 1)) == 0); /* the probe array doubles up to PROBE */
/* The coarsest finest level: 2^24 ns (16.8 ms). A slower attribute still gets buckets that
 * fine (few of them hold a change), so that views at 16.8 ms a column or more read levels
 * for every row rather than change lists. */
#define K_CAP          14
#define DENSITY        8
#define FLUSH_BYTES    4096
#define PENDING_BUDGET (32u * 1024u * 1024u)
#define SLOTS          4

/* Change list entries: the low 3 bits of the first varint. */
#define CHG_SMALL_INTS 6u /* codes 0..5: the integers 0..5 */
#define CHG_NULL       6u
#define CHG_ESCAPE     7u /* a value follows */
#define CHG_BIG_DELTA  ((guint64) 1 << 60)
#define CHG_MAX_BYTES  40u /* two varints and a value */
/* Change list buffers of all attributes together: a change run is flushed at FLUSH_BYTES, or
 * earlier with many attributes (each attribute's buffer is reserved whole, and 10,000 of
 * 4 KiB took 40 MiB of the builder's memory). Not much earlier: every run costs a directory
 * entry (40 bytes in the file, the builder and the reader) and a blob header. */
#define CHG_BUDGET     (16u * 1024u * 1024u)
#define CHG_MIN_FLUSH  512u

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

static inline RV
slots_best (const Slots *s, RV fallback)
{
  if (s->n == 0)
    return fallback;
  guint b = 0;
  for (guint i = 1; i < s->n; i++)
    if (s->d[i] > s->d[b])
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

/* A completed bucket passed up one level, or a single change (start == end). */
typedef struct
{
  gint64   start, end;
  RV       before, vf, vl;
  gboolean inside;
  gint64   f, l;
  Slots    slots;
  double   min, max;
} Rec;

/* Encoded buckets (or changes) waiting for a flush, and what the directory needs of them. */
typedef struct
{
  GByteArray *out;
  guint       out_n;
  gint64      out_first, out_last, out_prev;
} Out;

typedef struct
{
  gboolean open;
  gint64   index, bstart, bend;
  RV       before, vf, vl, cur;
  gboolean at_start, inside;
  gint64   f, l, cursor;
  Slots    slots;
  double   min, max;
  Out      o;
} Level;

typedef struct
{
  gint64 start;
  RV     v;
} Probe;

typedef struct
{
  gint    k0;      /* finest level, once levels != NULL */
  guint   n_probe;
  /* the first intervals, until levels start: grown by doubling up to PROBE, since most
   * attributes of a long trace (threads that lived briefly) never reach PROBE intervals */
  Probe  *probe;
  gint64  probe_end;
  RV      last;    /* value of the latest interval fed */
  /* Levels k0 .. k0 + n_levels - 1, added when a record first reaches them: level k opens only
   * W_k after the attribute's first change, so a 150 s trace uses about 14 of the 33 levels of
   * an attribute at 16.8 ms. A level not yet added holds @first since the history start. */
  Level  *levels;
  guint   n_levels;
  RV      first;
  gboolean started; /* an interval was fed: later starts with a new value are changes */
  Out     chg;     /* the change list (level CHANGES) */
  gboolean decided; /* finished: k0 chosen, levels written and freed */
} Attr;

typedef struct
{
  guint32 attribute, level;
  gint64  first, last;
  guint64 offset;
  guint32 csize, n;
} DirEntry;

struct _JvmsSummaryBuilder
{
  GArray         *attrs; /* Attr */
  GArray         *dir;   /* DirEntry */
  gsize           pending;
  JvmsNodeEncoder enc;
  /* the shared blob being packed (flush_all, finish): its runs and their directory entries */
  GByteArray     *pack;
  GArray         *pack_runs; /* DirEntry */
};

JvmsSummaryBuilder *
jvms_summary_builder_new (void)
{
  JvmsSummaryBuilder *sb = g_new0 (JvmsSummaryBuilder, 1);
  sb->attrs = g_array_new (FALSE, TRUE, sizeof (Attr));
  sb->dir = g_array_new (FALSE, FALSE, sizeof (DirEntry));
  sb->pack = g_byte_array_new ();
  sb->pack_runs = g_array_new (FALSE, FALSE, sizeof (DirEntry));
  return sb;
}

/* Frees an attribute's buffers and levels; its k0 stays (the directory records it). */
static void
attr_clear (Attr *at)
{
  g_clear_pointer (&at->probe, g_free);
  if (at->levels)
    {
      for (guint i = 0; i < at->n_levels; i++)
        if (at->levels[i].o.out)
          g_byte_array_unref (at->levels[i].o.out);
      g_clear_pointer (&at->levels, g_free);
      at->n_levels = 0;
    }
  g_clear_pointer (&at->chg.out, g_byte_array_unref);
}

void
jvms_summary_builder_free (JvmsSummaryBuilder *sb)
{
  if (sb == NULL)
    return;
  for (guint a = 0; a < sb->attrs->len; a++)
    attr_clear (&g_array_index (sb->attrs, Attr, a));
  g_array_unref (sb->attrs);
  g_array_unref (sb->dir);
  g_byte_array_unref (sb->pack);
  g_array_unref (sb->pack_runs);
  jvms_node_encoder_clear (&sb->enc);
  g_free (sb);
}

/* ---- encoding ---- */

static guint8 *
put_value (guint8 *p, RV v)
{
  gboolean small = (v.type == JVMS_VALUE_INT || v.type == JVMS_VALUE_STRING) && v.bits <= 30;
  *p++ = (guint8) (v.type | (small ? (guint8) ((v.bits + 1) << 3) : 0));
  if (small)
    return p;
  switch (v.type)
    {
    case JVMS_VALUE_INT:
      return jvms_varint_put (p, jvms_zigzag ((gint64) v.bits));
    case JVMS_VALUE_STRING:
      return jvms_varint_put (p, v.bits);
    case JVMS_VALUE_DOUBLE:
      jvms_put_u64le (p, v.bits);
      return p + 8;
    default:
      return p;
    }
}

static gboolean
get_value (const guint8 **pp, const guint8 *end, guint32 n_strings, RV *v)
{
  const guint8 *p = *pp;
  if (p >= end)
    return FALSE;
  guint8 tag = *p++;
  guint small = tag >> 3;
  v->type = tag & 3;
  v->bits = 0;
  if ((tag & 4) != 0 || (small && v->type != JVMS_VALUE_INT && v->type != JVMS_VALUE_STRING))
    return FALSE;
  if (small)
    v->bits = small - 1;
  else if (v->type == JVMS_VALUE_INT)
    {
      if (!jvms_varint_get (&p, end, &v->bits))
        return FALSE;
      v->bits = (guint64) jvms_unzigzag (v->bits);
    }
  else if (v->type == JVMS_VALUE_STRING)
    {
      if (!jvms_varint_get (&p, end, &v->bits))
        return FALSE;
    }
  else if (v->type == JVMS_VALUE_DOUBLE)
    {
      if (end - p < 8)
        return FALSE;
      v->bits = jvms_get_u64le (p);
      p += 8;
    }
  if (v->type == JVMS_VALUE_STRING && v->bits >= n_strings)
    return FALSE;
  *pp = p;
  return TRUE;
}

/* Numeric extremes as values: integral ones as INT so that they take a byte or two. */
static RV
numeric_rv (double x)
{
  RV v;
  if (x == floor (x) && fabs (x) < 9007199254740992.0)
    {
      v.type = JVMS_VALUE_INT;
      v.bits = (guint64) (gint64) x;
    }
  else
    {
      v.type = JVMS_VALUE_DOUBLE;
      memcpy (&v.bits, &x, 8);
    }
  return v;
}

/* Appends one run (one attribute's buckets at one level) to @blob. */
static void
run_append (GByteArray *blob, guint32 attr, guint32 k, Out *o)
{
  guint8 head[64];
  guint8 *p = jvms_varint_put (head, attr);
  p = jvms_varint_put (p, k);
  p = jvms_varint_put (p, jvms_zigzag (o->out_first));
  p = jvms_varint_put (p, o->out_n);
  p = jvms_varint_put (p, o->out->len);
  g_byte_array_append (blob, head, (guint) (p - head));
  g_byte_array_append (blob, o->out->data, o->out->len);
}

/* Writes @payload (n_runs then the runs) as one blob; @runs lists (attr, level, Level*). */
static gboolean
write_blob (JvmsHistory *h, JvmsSummaryBuilder *sb, GByteArray *runs_bytes, GArray *runs,
            GError **error)
{
  guint8 head[16];
  guint8 *p = jvms_varint_put (head, runs->len);
  g_byte_array_prepend (runs_bytes, head, (guint) (p - head));
  gint64 t0 = G_MAXINT64, t1 = G_MININT64;
  guint32 total = 0;
  for (guint i = 0; i < runs->len; i++)
    {
      DirEntry *e = &g_array_index (runs, DirEntry, i);
      if (e->level == CHANGES)
        {
          t0 = MIN (t0, e->first);
          t1 = MAX (t1, sat_add (e->last, 1));
        }
      else
        {
          guint shift = level_shift (e->level);
          t0 = MIN (t0, bucket_start (e->first, shift));
          t1 = MAX (t1, bucket_end (e->last, shift));
        }
      total += e->n;
    }
  gsize size = jvms_blob_frame (&sb->enc, runs_bytes->data, runs_bytes->len, JVMS_NODE_LEVEL_SUMMARY,
                                total, t0, t1);
  guint64 off;
  if (!jvms_history_append_blob (h, sb->enc.blob, size, &off, error))
    return FALSE;
  h->summary_bytes += size;
  for (guint i = 0; i < runs->len; i++)
    {
      DirEntry *e = &g_array_index (runs, DirEntry, i);
      e->offset = off;
      e->csize = (guint32) (size - sizeof (JvmsNodeHeader));
      g_array_append_val (sb->dir, *e);
    }
  g_byte_array_set_size (runs_bytes, 0);
  g_array_set_size (runs, 0);
  return TRUE;
}

static void
level_taken (JvmsSummaryBuilder *sb, Out *o)
{
  sb->pending -= o->out->len;
  g_byte_array_set_size (o->out, 0);
  o->out_n = 0;
}

static gboolean
flush_level (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, guint32 k, Out *o,
             GError **error)
{
  if (o->out == NULL || o->out_n == 0)
    return TRUE;
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  g_autoptr (GArray) runs = g_array_new (FALSE, FALSE, sizeof (DirEntry));
  DirEntry e = { attr, k, o->out_first, o->out_last, 0, 0, o->out_n };
  g_array_append_val (runs, e);
  run_append (bytes, attr, k, o);
  level_taken (sb, o);
  return write_blob (h, sb, bytes, runs, error);
}

/* Moves every pending run of @a into the shared blob being packed, written whenever it passes
 * about 64 KiB, so that the many short runs of coarse levels do not each cost a blob. */
static gboolean
pack_attr (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 a, Attr *at, GError **error)
{
  if (at->levels == NULL && at->chg.out_n == 0)
    return TRUE;
  for (guint k = at->levels ? (guint) at->k0 : CHANGES; k <= CHANGES; k++)
    {
      if (k < CHANGES && k - (guint) at->k0 >= at->n_levels)
        continue;
      Out *o = k == CHANGES ? &at->chg : &at->levels[k - (guint) at->k0].o;
      if (o->out == NULL || o->out_n == 0)
        continue;
      DirEntry e = { a, k, o->out_first, o->out_last, 0, 0, o->out_n };
      g_array_append_val (sb->pack_runs, e);
      run_append (sb->pack, a, k, o);
      level_taken (sb, o);
      if (sb->pack->len >= 16 * FLUSH_BYTES && !write_blob (h, sb, sb->pack, sb->pack_runs, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
pack_end (JvmsHistory *h, JvmsSummaryBuilder *sb, GError **error)
{
  return sb->pack_runs->len == 0 || write_blob (h, sb, sb->pack, sb->pack_runs, error);
}

/* Packs every pending run: used when the pending buffers pass their budget. */
static gboolean
flush_all (JvmsHistory *h, JvmsSummaryBuilder *sb, GError **error)
{
  for (guint a = 0; a < sb->attrs->len; a++)
    if (!pack_attr (h, sb, a, &g_array_index (sb->attrs, Attr, a), error))
      return FALSE;
  return pack_end (h, sb, error);
}

static gboolean
store_bucket (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, guint32 k, Level *lv,
              GError **error)
{
  guint8 buf[128];
  guint8 *p = buf;
  RV dom = slots_best (&lv->slots, lv->vl);
  guint8 flags = (lv->inside ? F_INSIDE : 0) | (lv->at_start ? F_AT_START : 0) |
                 (!isnan (lv->min) ? F_NUMERIC : 0);
  if (rv_eq (dom, lv->vl))
    flags |= F_DOM_LAST;
  else if (rv_eq (dom, lv->vf))
    flags |= F_DOM_FIRST;
  if (lv->o.out == NULL)
    lv->o.out = g_byte_array_sized_new (64);
  gboolean first = lv->o.out_n == 0;
  p = jvms_varint_put (p, first ? 0 : (guint64) (lv->index - lv->o.out_prev));
  *p++ = flags;
  if (first)
    p = put_value (p, lv->before);
  if (lv->at_start)
    p = put_value (p, lv->vf);
  if (lv->inside)
    {
      p = jvms_varint_put (p, (guint64) lv->f - (guint64) lv->bstart);
      p = jvms_varint_put (p, (guint64) lv->l - (guint64) lv->f);
      p = put_value (p, lv->vl);
    }
  if (!(flags & (F_DOM_LAST | F_DOM_FIRST)))
    p = put_value (p, dom);
  if (flags & F_NUMERIC)
    {
      p = put_value (p, numeric_rv (lv->min));
      p = put_value (p, numeric_rv (lv->max));
    }
  if (first)
    lv->o.out_first = lv->index;
  lv->o.out_last = lv->index;
  lv->o.out_prev = lv->index;
  lv->o.out_n++;
  g_byte_array_append (lv->o.out, buf, (guint) (p - buf));
  sb->pending += (gsize) (p - buf);
  if (lv->o.out->len >= FLUSH_BYTES)
    return flush_level (h, sb, attr, k, &lv->o, error);
  if (sb->pending > PENDING_BUDGET)
    return flush_all (h, sb, error);
  return TRUE;
}

/* Appends one change to @attr's change list (format in jvms-history-format.h). */
static gboolean
store_change (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, Out *o, gint64 t, RV v,
              GError **error)
{
  guint64 code = v.type == JVMS_VALUE_INT && v.bits < CHG_SMALL_INTS ? v.bits
               : v.type == JVMS_VALUE_NULL ? CHG_NULL : CHG_ESCAPE;
  /* One change a call, for every interval: written in place. The buffer is flushed once it
   * passes @flush, which only shrinks as attributes are added, and a change takes at most
   * CHG_MAX_BYTES: the capacity reserved here is never passed and the array never moves. */
  guint flush = CLAMP (CHG_BUDGET / MAX (jvms_attr_tree_size (h->attrs), 1u), CHG_MIN_FLUSH,
                       FLUSH_BYTES);
  if (o->out == NULL)
    o->out = g_byte_array_sized_new (flush + CHG_MAX_BYTES);
  guint8 *p0 = o->out->data + o->out->len, *p = p0;
  if (o->out_n == 0)
    {
      p = jvms_varint_put (p, code);
      o->out_first = t;
    }
  else
    {
      guint64 d = (guint64) t - (guint64) o->out_prev; /* >= 1: changes are strictly ordered */
      if (d < CHG_BIG_DELTA)
        p = jvms_varint_put (p, d << 3 | code);
      else
        {
          p = jvms_varint_put (p, code);
          p = jvms_varint_put (p, d);
        }
    }
  if (code == CHG_ESCAPE)
    p = put_value (p, v);
  o->out_last = t;
  o->out_prev = t;
  o->out_n++;
  o->out->len += (guint) (p - p0);
  sb->pending += (gsize) (p - p0);
  if (o->out->len >= flush)
    return flush_level (h, sb, attr, CHANGES, o, error);
  if (sb->pending > PENDING_BUDGET)
    return flush_all (h, sb, error);
  return TRUE;
}

/* ---- the level cascade ---- */

static inline void
level_dur (Level *lv, RV v, gint64 d)
{
  if (d <= 0)
    return;
  slots_add (&lv->slots, v, d);
  double x;
  if (rv_numeric (v, &x))
    minmax_add (&lv->min, &lv->max, x);
}

static gboolean level_feed (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, Attr *at,
                            guint k, const Rec *r, GError **error);

/* Completes level k's open bucket; its durations run to @until (its end, or the history's). */
static gboolean
level_close (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, Attr *at, guint k,
             gint64 until, GError **error)
{
  if (k - (guint) at->k0 >= at->n_levels)
    return TRUE; /* never fed */
  Level *lv = &at->levels[k - at->k0];
  if (!lv->open)
    return TRUE;
  level_dur (lv, lv->cur, MIN (lv->bend, until) - lv->cursor);
  lv->cursor = lv->bend;
  lv->open = FALSE;
  if (!lv->inside && !lv->at_start)
    return TRUE; /* pure: the level above accounts it as part of a constant stretch */
  if (!store_bucket (h, sb, attr, k, lv, error))
    return FALSE;
  if (k + 1 < N_LEVELS)
    {
      Rec r = {
        .start = lv->bstart, .end = MIN (lv->bend, until), .before = lv->before, .vf = lv->vf,
        .vl = lv->vl, .inside = lv->inside, .f = lv->f, .l = lv->l, .slots = lv->slots,
        .min = lv->min, .max = lv->max,
      };
      return level_feed (h, sb, attr, at, k + 1, &r, error);
    }
  return TRUE;
}

/* Level k of @at, added (with the levels below it) if no record reached it yet. */
static Level *
level_get (JvmsHistory *h, Attr *at, guint k)
{
  guint i = k - (guint) at->k0;
  if (i >= at->n_levels)
    {
      at->levels = g_renew (Level, at->levels, i + 1);
      memset (&at->levels[at->n_levels], 0, (i + 1 - at->n_levels) * sizeof (Level));
      for (guint j = at->n_levels; j <= i; j++)
        {
          at->levels[j].cur = at->first;
          at->levels[j].cursor = h->start_time;
        }
      at->n_levels = i + 1;
    }
  return &at->levels[i];
}

static gboolean
level_feed (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, Attr *at, guint k,
            const Rec *r, GError **error)
{
  Level *lv = level_get (h, at, k);
  guint shift = level_shift (k);
  gint64 b = r->start >> shift; /* arithmetic shift: floor, also for negative times */

  if (lv->open && lv->index != b)
    {
      if (!level_close (h, sb, attr, at, k, G_MAXINT64, error))
        return FALSE;
      lv = &at->levels[k - (guint) at->k0]; /* closing fed the level above: levels may move */
    }
  if (!lv->open)
    {
      lv->open = TRUE;
      lv->index = b;
      lv->bstart = bucket_start (b, shift);
      lv->bend = bucket_end (b, shift);
      lv->before = lv->vf = lv->vl = lv->cur;
      lv->at_start = lv->inside = FALSE;
      lv->slots.n = 0;
      lv->min = lv->max = NAN;
      if (lv->cursor < lv->bstart)
        lv->cursor = lv->bstart;
    }
  level_dur (lv, lv->cur, r->start - lv->cursor);
  if (!rv_eq (r->before, r->vf))
    {
      if (r->start == lv->bstart)
        {
          lv->at_start = TRUE;
          lv->before = r->before;
          lv->vf = r->vf;
        }
      else
        {
          if (!lv->inside)
            lv->f = r->start;
          lv->inside = TRUE;
          lv->l = r->start;
        }
    }
  if (r->inside)
    {
      if (!lv->inside)
        lv->f = r->f;
      lv->inside = TRUE;
      lv->l = r->l;
    }
  for (guint i = 0; i < r->slots.n; i++)
    slots_add (&lv->slots, r->slots.v[i], r->slots.d[i]);
  if (!isnan (r->min))
    {
      minmax_add (&lv->min, &lv->max, r->min);
      minmax_add (&lv->min, &lv->max, r->max);
    }
  lv->cur = lv->vl = r->vl;
  lv->cursor = r->end;
  return TRUE;
}

/* level_feed for a single change at the finest level, without building a record: the hot
 * path of the builder (one call per interval). */
static gboolean
feed_change (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, Attr *at, gint64 c, RV before,
             RV v, GError **error)
{
  guint k = (guint) at->k0;
  Level *lv = &at->levels[0];
  guint shift = level_shift (k);
  gint64 b = c >> shift;

  if (G_UNLIKELY (!lv->open || lv->index != b))
    {
      Rec r = { .start = c, .end = c, .before = before, .vf = v, .vl = v, .min = NAN, .max = NAN };
      return level_feed (h, sb, attr, at, k, &r, error);
    }
  level_dur (lv, lv->cur, c - lv->cursor);
  if (c == lv->bstart)
    {
      lv->at_start = TRUE;
      lv->before = before;
      lv->vf = v;
    }
  else
    {
      if (!lv->inside)
        lv->f = c;
      lv->inside = TRUE;
      lv->l = c;
    }
  lv->cur = lv->vl = v;
  lv->cursor = c;
  return TRUE;
}

static void
attr_start_levels (JvmsHistory *h, Attr *at, gint k0, RV first)
{
  at->k0 = k0;
  at->first = first;
  level_get (h, at, (guint) k0);
}

/* Chooses k0 from the probed intervals and replays them into the levels. */
static gboolean
attr_decide (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, Attr *at, GError **error)
{
  /* The first interval starts at the history start, often long before anything happens;
   * the mean is taken over the others. */
  gint k0 = K_CAP;
  if (at->n_probe >= 2)
    {
      gint64 span = at->probe_end - at->probe[1].start;
      gint64 mean = MAX (span / (gint64) (at->n_probe - 1), 1);
      k0 = 0;
      while (k0 < K_CAP && ((gint64) 1 << level_shift ((guint) k0)) < mean * DENSITY)
        k0++;
    }
  attr_start_levels (h, at, k0, at->probe[0].v);
  gboolean ok = TRUE;
  for (guint i = 1; i < at->n_probe && ok; i++)
    if (!rv_eq (at->probe[i - 1].v, at->probe[i].v))
      ok = feed_change (h, sb, attr, at, at->probe[i].start, at->probe[i - 1].v, at->probe[i].v, error);
  g_clear_pointer (&at->probe, g_free);
  return ok;
}

gboolean
jvms_summary_builder_add (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, gint64 start,
                          gint64 end, guint8 type, guint64 bits, GError **error)
{
  if (attr >= sb->attrs->len)
    g_array_set_size (sb->attrs, MAX (attr + 1, sb->attrs->len * 2));
  Attr *at = &g_array_index (sb->attrs, Attr, attr);
  RV v = { bits, type };
  if (at->started && !rv_eq (at->last, v) && !store_change (h, sb, attr, &at->chg, start, v, error))
    return FALSE;
  at->started = TRUE;
  if (at->levels)
    {
      RV before = at->last;
      at->last = v;
      if (rv_eq (before, v))
        return TRUE;
      return feed_change (h, sb, attr, at, start, before, v, error);
    }
  if ((at->n_probe & (at->n_probe - 1)) == 0) /* 0 or a power of two: full */
    at->probe = g_renew (Probe, at->probe, MAX (at->n_probe * 2, 2u));
  at->probe[at->n_probe] = (Probe) { start, v };
  at->n_probe++;
  at->probe_end = end;
  at->last = v;
  if (at->n_probe == PROBE)
    return attr_decide (h, sb, attr, at, error);
  return TRUE;
}

static int
cmp_dir (const void *a, const void *b)
{
  const DirEntry *x = a, *y = b;
  if (x->attribute != y->attribute)
    return x->attribute < y->attribute ? -1 : 1;
  if (x->level != y->level)
    return x->level < y->level ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

gboolean
jvms_summary_builder_finish (JvmsHistory *h, JvmsSummaryBuilder *sb, GBytes **directory,
                             GError **error)
{
  guint n_attrs = jvms_attr_tree_size (h->attrs);
  if (sb->attrs->len < n_attrs)
    g_array_set_size (sb->attrs, n_attrs);
  /* One attribute at a time: its levels closed, its runs packed and its state freed before the
   * next one's. Closing all of them first held every level's last buckets, and the levels of
   * every attribute deciding its k0 only now, at once: 108 MB at 24,787 attributes. */
  for (guint a = 0; a < n_attrs; a++)
    {
      Attr *at = &g_array_index (sb->attrs, Attr, a);
      /* Fewer than PROBE intervals: choose from what there is. */
      if (at->levels == NULL && at->n_probe > 0 && !attr_decide (h, sb, a, at, error))
        return FALSE;
      if (at->levels == NULL)
        continue; /* no interval at all (an empty history) */
      /* Closing level k may add level k + 1: n_levels is read again every time. */
      for (guint k = (guint) at->k0; k - (guint) at->k0 < at->n_levels; k++)
        if (!level_close (h, sb, a, at, k, h->end_time, error))
          return FALSE;
      /* Levels whose buckets are wider than the history serve no query: queries never use
       * buckets wider than a column, hence than the history. */
      for (guint k = (guint) at->k0; k - (guint) at->k0 < at->n_levels; k++)
        {
          Level *lv = &at->levels[k - (guint) at->k0];
          if (((guint64) 1 << level_shift (k)) > (guint64) h->end_time - (guint64) h->start_time &&
              lv->o.out && lv->o.out_n > 0)
            level_taken (sb, &lv->o);
        }
      if (!pack_attr (h, sb, a, at, error))
        return FALSE;
      at->decided = TRUE;
      attr_clear (at);
    }
  if (!pack_end (h, sb, error))
    return FALSE;
  if (sb->dir->len > 1)
    qsort (sb->dir->data, sb->dir->len, sizeof (DirEntry), cmp_dir);

  /* Sized exactly: a growing array would hold up to twice the directory (40 bytes a run). */
  gsize size = jvms_varint_len (n_attrs) + jvms_varint_len (sb->dir->len) +
               (gsize) sb->dir->len * sizeof (JvmsSummaryDirEntry);
  for (guint a = 0; a < n_attrs; a++)
    {
      Attr *at = &g_array_index (sb->attrs, Attr, a);
      size += jvms_varint_len (at->decided ? (guint64) at->k0 + 1 : 0);
    }
  guint8 *out = g_malloc (size), *p = out;
  p = jvms_varint_put (p, n_attrs);
  for (guint a = 0; a < n_attrs; a++)
    {
      Attr *at = &g_array_index (sb->attrs, Attr, a);
      p = jvms_varint_put (p, at->decided ? (guint64) at->k0 + 1 : 0);
    }
  p = jvms_varint_put (p, sb->dir->len);
  for (guint i = 0; i < sb->dir->len; i++, p += sizeof (JvmsSummaryDirEntry))
    {
      const DirEntry *e = &g_array_index (sb->dir, DirEntry, i);
      jvms_put_u32le (p + 0, e->attribute);
      jvms_put_u32le (p + 4, e->level);
      jvms_put_u64le (p + 8, (guint64) e->first);
      jvms_put_u64le (p + 16, (guint64) e->last);
      jvms_put_u64le (p + 24, e->offset);
      jvms_put_u32le (p + 32, e->csize);
      jvms_put_u32le (p + 36, e->n);
    }
  g_assert ((gsize) (p - out) == size);
  *directory = g_bytes_new_take (out, size);
  return TRUE;
}

/* ---- the read side ---- */

struct _JvmsSummaryIndex
{
  guint     n_attrs;
  gint8    *k0;      /* per attribute, -1 none */
  DirEntry *dir;
  guint     n_dir;
  guint    *first;   /* per attribute: its first entry; first[n_attrs] = n_dir */
};

void
jvms_summary_index_free (JvmsSummaryIndex *si)
{
  if (si == NULL)
    return;
  g_free (si->k0);
  g_free (si->dir);
  g_free (si->first);
  g_free (si);
}

gint
jvms_summary_index_finest (JvmsSummaryIndex *si, guint attribute)
{
  return si && attribute < si->n_attrs ? si->k0[attribute] : -1;
}

guint
jvms_summary_index_n_blobs (JvmsSummaryIndex *si)
{
  return si ? si->n_dir : 0;
}

void
jvms_summary_index_level_stats (JvmsSummaryIndex *si, guint level, guint *n_runs,
                                guint64 *n_items, guint *n_finest)
{
  *n_runs = 0;
  *n_items = 0;
  *n_finest = 0;
  for (guint i = 0; si && i < si->n_dir; i++)
    if (si->dir[i].level == level)
      {
        (*n_runs)++;
        *n_items += si->dir[i].n;
      }
  for (guint a = 0; si && a < si->n_attrs; a++)
    if (si->k0[a] >= 0 && (guint) si->k0[a] == level)
      (*n_finest)++;
}

JvmsSummaryIndex *
jvms_summary_index_load (const guint8 *data, gsize size, const char *file, guint64 offset,
                         guint n_attributes, guint64 data_end, GError **error)
{
  const guint8 *p = data, *end = data + size;
  guint64 n, v;
  JvmsSummaryIndex *si = g_new0 (JvmsSummaryIndex, 1);

  if (!jvms_varint_get (&p, end, &n) || n != n_attributes)
    goto bad;
  si->n_attrs = n_attributes;
  si->k0 = g_new (gint8, MAX (n_attributes, 1));
  for (guint a = 0; a < n_attributes; a++)
    {
      if (!jvms_varint_get (&p, end, &v) || v > N_LEVELS)
        goto bad;
      si->k0[a] = (gint8) ((gint) v - 1);
    }
  if (!jvms_varint_get (&p, end, &n) || n > (guint64) (end - p) / sizeof (JvmsSummaryDirEntry) ||
      (guint64) (end - p) != n * sizeof (JvmsSummaryDirEntry))
    goto bad;
  si->n_dir = (guint) n;
  si->dir = g_new (DirEntry, MAX (n, 1));
  si->first = g_new0 (guint, n_attributes + 1);
  for (guint i = 0; i < si->n_dir; i++, p += sizeof (JvmsSummaryDirEntry))
    {
      DirEntry *e = &si->dir[i];
      e->attribute = jvms_get_u32le (p);
      e->level = jvms_get_u32le (p + 4);
      e->first = (gint64) jvms_get_u64le (p + 8);
      e->last = (gint64) jvms_get_u64le (p + 16);
      e->offset = jvms_get_u64le (p + 24);
      e->csize = jvms_get_u32le (p + 32);
      e->n = jvms_get_u32le (p + 36);
      if (e->attribute >= n_attributes || e->level > CHANGES || si->k0[e->attribute] < 0 ||
          e->level < (guint) si->k0[e->attribute] || e->last < e->first || e->n == 0 ||
          e->offset < JVMS_FILE_HEADER_SIZE || e->offset >= data_end)
        goto bad;
      if (i > 0 && cmp_dir (&si->dir[i - 1], e) >= 0)
        goto bad;
    }
  /* first[a]: entries are sorted by attribute. */
  guint i = 0;
  for (guint a = 0; a <= n_attributes; a++)
    {
      while (i < si->n_dir && si->dir[i].attribute < a)
        i++;
      si->first[a] = i;
    }
  return si;

bad:
  g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
               "%s: the summary directory at offset %" G_GUINT64_FORMAT " is malformed "
               "(at table byte %" G_GSIZE_FORMAT ")", file, offset, (gsize) (p - data));
  jvms_summary_index_free (si);
  return NULL;
}

/* A decoded bucket. */
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
  /* The run's encoded bytes, decoded by blob_run or blob_changes when a query reads that run:
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

static gboolean
decode_changes (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
                gint64 first, Change *ch)
{
  const guint8 *p = *pp;
  gint64 t = first;
  for (guint i = 0; i < run->n; i++)
    {
      guint64 x, d;
      if (!jvms_varint_get (&p, end, &x))
        return FALSE;
      d = x >> 3;
      if (i == 0 && d != 0)
        return FALSE;
      if (i > 0 && d == 0 && (!jvms_varint_get (&p, end, &d) || d < CHG_BIG_DELTA))
        return FALSE;
      if (d > (guint64) G_MAXINT64 - (guint64) t)
        return FALSE;
      t += (gint64) d;
      ch[i].t = t;
      guint code = (guint) (x & 7);
      if (code < CHG_SMALL_INTS)
        ch[i].v = (RV) { code, JVMS_VALUE_INT };
      else if (code == CHG_NULL)
        ch[i].v = (RV) { 0, JVMS_VALUE_NULL };
      else if (!get_value (&p, end, n_strings, &ch[i].v))
        return FALSE;
    }
  *pp = p;
  return TRUE;
}

static gboolean
decode_run (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
            gint64 first, Bucket *bk)
{
  const guint8 *p = *pp;
  guint shift = level_shift (run->level);
  gint64 index = first;
  RV prev_vl = { 0, JVMS_VALUE_NULL };
  for (guint i = 0; i < run->n; i++)
    {
      Bucket *b = &bk[i];
      guint64 d, fo, lo;
      if (!jvms_varint_get (&p, end, &d) || (i > 0 && d == 0) || (i == 0 && d != 0) ||
          d > (guint64) G_MAXINT64 - (guint64) index || p >= end)
        return FALSE;
      index += (gint64) d;
      if (index > (G_MAXINT64 >> shift))
        return FALSE;
      b->index = index;
      b->flags = *p++;
      if (b->flags & ~0x1Fu)
        return FALSE;
      if (i == 0)
        {
          if (!get_value (&p, end, n_strings, &b->before))
            return FALSE;
        }
      else
        b->before = prev_vl;
      b->vf = b->before;
      if ((b->flags & F_AT_START) && !get_value (&p, end, n_strings, &b->vf))
        return FALSE;
      b->vl = b->vf;
      gint64 bs = bucket_start (index, shift), be = bucket_end (index, shift);
      if (b->flags & F_INSIDE)
        {
          if (!jvms_varint_get (&p, end, &fo) || !jvms_varint_get (&p, end, &lo) ||
              fo == 0 || fo >= (guint64) be - (guint64) bs || lo >= (guint64) be - (guint64) bs - fo ||
              !get_value (&p, end, n_strings, &b->vl))
            return FALSE;
          b->f = bs + (gint64) fo;
          b->l = b->f + (gint64) lo;
        }
      if (b->flags & F_DOM_LAST)
        b->dom = b->vl;
      else if (b->flags & F_DOM_FIRST)
        b->dom = b->vf;
      else if (!get_value (&p, end, n_strings, &b->dom))
        return FALSE;
      b->min = b->max = NAN;
      if (b->flags & F_NUMERIC)
        {
          RV mn, mx;
          if (!get_value (&p, end, n_strings, &mn) || !get_value (&p, end, n_strings, &mx) ||
              !rv_numeric (mn, &b->min) || !rv_numeric (mx, &b->max))
            return FALSE;
        }
      prev_vl = b->vl;
    }
  *pp = p;
  return TRUE;
}

/* Reads a summary blob through the cache. */
static JvmsNode *
get_blob (JvmsHistory *h, const DirEntry *e, GError **error)
{
  JvmsNode *n = jvms_node_cache_lookup (h->cache, e->offset);
  if (n)
    return n;
  JvmsNodeHeader hd;
  const guint8 *payload = jvms_blob_read_scratch (h->fd, h->path, e->offset, e->csize,
                                                  h->data_end, JVMS_NODE_SIZE_MAX, &hd, error);
  if (payload == NULL)
    return NULL;
  const guint8 *p = payload, *end = payload + hd.usize;
  guint64 n_runs;
  guint n_attrs = jvms_attr_tree_size (h->attrs);
  /* Each run takes at least 6 bytes, each bucket 3 and each change 1: bounds before
   * allocating; a first pass over the run headers splits the items into buckets and changes. */
  if (hd.level != JVMS_NODE_LEVEL_SUMMARY || !jvms_varint_get (&p, end, &n_runs) ||
      n_runs == 0 || n_runs > hd.usize / 6 || hd.n_intervals > hd.usize)
    goto bad;
  const guint8 *runs_at = p;
  guint64 n_changes = 0, n_buckets = 0;
  for (guint r = 0; r < n_runs; r++)
    {
      guint64 attr, level, first, cnt, len;
      if (!jvms_varint_get (&p, end, &attr) || !jvms_varint_get (&p, end, &level) ||
          !jvms_varint_get (&p, end, &first) || !jvms_varint_get (&p, end, &cnt) ||
          !jvms_varint_get (&p, end, &len) || attr >= n_attrs || level > CHANGES ||
          cnt == 0 || cnt > hd.n_intervals - n_changes - n_buckets || len > (guint64) (end - p) ||
          cnt > len)
        goto bad;
      if (level == CHANGES)
        n_changes += cnt;
      else if (cnt > len / 3)
        goto bad;
      else
        n_buckets += cnt;
      p += len;
    }
  if (p != end || n_changes + n_buckets != hd.n_intervals)
    goto bad;
  gsize bytes = sizeof (JvmsNode) + sizeof (Blob) + n_runs * sizeof (Run) + hd.usize;
  /* Level blobs are kept at once: a tenth of the summary, and every range at their zoom reads
   * them. Change lists, the rest, pass the cache's doorkeeper. */
  gboolean keep = e->level != CHANGES || jvms_node_cache_admit (h->cache, e->offset);
  JvmsNode *reused = keep ? NULL : jvms_node_transient_new (bytes);
  /* Only the headers and runs are zeroed: the bytes are all written below, and clearing a
   * large blob on every cache miss was a tenth of a zoomed view's frame. */
  n = reused ? reused : jvms_node_memory_alloc (bytes);
  if (n == NULL)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                   "%s: summary blob at offset %" G_GUINT64_FORMAT ": out of memory", h->path,
                   e->offset);
      return NULL;
    }
  memset (n, 0, sizeof (JvmsNode) + sizeof (Blob) + n_runs * sizeof (Run));
  n->transient = reused != NULL;
  n->pooled = reused == NULL;
  n->ref_count = 1;
  n->offset = e->offset;
  n->bytes = bytes;
  n->level = JVMS_NODE_LEVEL_SUMMARY;
  n->n_intervals = hd.n_intervals;
  Blob *blob = (Blob *) (n + 1);
  blob->n_runs = (guint) n_runs;
  blob->runs = (Run *) (blob + 1);
  blob->bytes = (guint8 *) (blob->runs + n_runs);
  memcpy (blob->bytes, payload, hd.usize);
  n->buckets = blob;
  p = runs_at;
  for (guint r = 0; r < n_runs; r++)
    {
      guint64 attr = 0, level = 0, first = 0, cnt = 0, len = 0;
      /* Checked by the first pass. */
      jvms_varint_get (&p, end, &attr);
      jvms_varint_get (&p, end, &level);
      jvms_varint_get (&p, end, &first);
      jvms_varint_get (&p, end, &cnt);
      jvms_varint_get (&p, end, &len);
      Run *run = &blob->runs[r];
      run->attr = (guint32) attr;
      run->level = (guint32) level;
      run->n = (guint) cnt;
      run->data = blob->bytes + (p - payload);
      run->len = (guint32) len;
      run->first_index = jvms_unzigzag (first);
      p += len;
    }
  if (!keep)
    return n;
  JvmsNode *c = jvms_node_cache_insert (h->cache, n);
  jvms_node_unref (n);
  return c;

bad:
  g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
               "%s: summary blob at offset %" G_GUINT64_FORMAT " is malformed", h->path, e->offset);
  return NULL;
}

/* The run @e describes in its blob, or NULL when the blob lacks it. */
static const Run *
find_run (JvmsNode *n, const DirEntry *e)
{
  const Blob *blob = n->buckets;
  for (guint r = 0; r < blob->n_runs; r++)
    if (blob->runs[r].attr == e->attribute && blob->runs[r].level == e->level)
      return blob->runs[r].n == e->n ? &blob->runs[r] : NULL;
  return NULL;
}

/* The buckets of @e's run in its blob, decoded into @scratch (Bucket), or NULL (CORRUPT) when
 * the blob lacks it or it does not decode. */
static const Bucket *
blob_run (JvmsHistory *h, JvmsNode *n, const DirEntry *e, GArray *scratch, guint *n_buckets,
          GError **error)
{
  const Run *run = e->level != CHANGES ? find_run (n, e) : NULL;
  if (run != NULL)
    {
      g_array_set_size (scratch, run->n);
      Bucket *b = (Bucket *) scratch->data;
      const guint8 *p = run->data;
      if (decode_run (&p, run->data + run->len, jvms_string_table_size (h->strings), run,
                      run->first_index, b) &&
          p == run->data + run->len && b[0].index == e->first && b[run->n - 1].index == e->last)
        {
          *n_buckets = run->n;
          return b;
        }
    }
  g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
               "%s: summary blob at offset %" G_GUINT64_FORMAT " lacks the run its directory "
               "entry describes (attribute %u, level %u)", h->path, e->offset, e->attribute, e->level);
  return NULL;
}

/* The changes of @e's change list run in its blob, decoded into @scratch (Change), or NULL
 * (CORRUPT) when the blob lacks it or it does not decode. */
static const Change *
blob_changes (JvmsHistory *h, JvmsNode *n, const DirEntry *e, GArray *scratch, guint *n_changes,
              GError **error)
{
  const Run *run = e->level == CHANGES ? find_run (n, e) : NULL;
  if (run != NULL)
    {
      /* run->n <= run->len (get_blob): the scratch is bounded by the blob. */
      g_array_set_size (scratch, run->n);
      Change *c = (Change *) scratch->data;
      const guint8 *p = run->data;
      if (decode_changes (&p, run->data + run->len, jvms_string_table_size (h->strings), run,
                          run->first_index, c) &&
          p == run->data + run->len && c[0].t == e->first && c[run->n - 1].t == e->last)
        {
          *n_changes = run->n;
          return c;
        }
    }
  g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
               "%s: summary blob at offset %" G_GUINT64_FORMAT " lacks the change list its "
               "directory entry describes (attribute %u)", h->path, e->offset, e->attribute);
  return NULL;
}

gboolean jvms_summary_check_all (JvmsHistory *h, GError **error);
gboolean
jvms_summary_check_all (JvmsHistory *h, GError **error)
{
  g_autoptr (GArray) scratch = g_array_new (FALSE, FALSE, sizeof (Bucket));
  g_autoptr (GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  for (guint i = 0; h->summary && i < h->summary->n_dir; i++)
    {
      JvmsNode *n = get_blob (h, &h->summary->dir[i], error);
      guint nb;
      if (n == NULL)
        return FALSE;
      const DirEntry *e = &h->summary->dir[i];
      gboolean ok = e->level == CHANGES ? blob_changes (h, n, e, changes, &nb, error) != NULL
                                        : blob_run (h, n, e, scratch, &nb, error) != NULL;
      jvms_node_unref (n);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* ---- combining into columns ---- */

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

static inline void
durations_reset (Durations *s)
{
  for (guint m = s->mask; m != 0; m &= m - 1)
    s->d[__builtin_ctz (m)] = 0;
  s->mask = 0;
  s->slots.n = 0;
}

static inline void
durations_add (Durations *s, RV v, gint64 d)
{
  guint i = v.type == JVMS_VALUE_NULL                      ? DIRECT - 1
            : v.type == JVMS_VALUE_INT && v.bits < DIRECT - 1 ? (guint) v.bits
                                                            : DIRECT;
  if (G_LIKELY (i < DIRECT))
    {
      s->d[i] += d;
      s->mask |= 1u << i;
    }
  else
    slots_add (&s->slots, v, d);
}

/* The value held longest, @fallback when none was added. */
static inline RV
durations_best (const Durations *s, RV fallback)
{
  RV best = fallback;
  gint64 best_d = G_MININT64;
  for (guint i = 0; i < s->slots.n; i++)
    if (s->slots.d[i] > best_d)
      {
        best_d = s->slots.d[i];
        best = s->slots.v[i];
      }
  for (guint m = s->mask; m != 0; m &= m - 1)
    {
      guint i = (guint) __builtin_ctz (m);
      if (s->d[i] > best_d)
        {
          best_d = s->d[i];
          best = i == DIRECT - 1 ? (RV) { 0, JVMS_VALUE_NULL } : (RV) { i, JVMS_VALUE_INT };
        }
    }
  return best;
}

typedef struct
{
  gboolean  any, mixed;
  RV        first;
  Durations slots;
  double   min, max;
  /* cut pieces whose min/max is not known exactly: refined at the end if they matter */
  guint    n_uncertain;
  gint64   us[2], ue[2], ubs[2]; /* the piece, and its bucket's start */
  RV       uvf[2];               /* the value at that bucket's start */
  double   umin[2], umax[2];
} Col;

static inline void
col_reset (Col *c)
{
  c->any = c->mixed = FALSE;
  durations_reset (&c->slots);
  c->min = c->max = NAN;
  c->n_uncertain = 0;
}

/* @v held for @d in the column: its flags and dominant only (state lanes ask no min/max). */
static inline void
col_state (Col *c, RV v, gint64 d)
{
  if (!c->any)
    {
      c->any = TRUE;
      c->first = v;
    }
  else if (!c->mixed && !rv_eq (c->first, v))
    c->mixed = TRUE;
  durations_add (&c->slots, v, d);
}

static inline void
col_value (Col *c, RV v, gint64 d)
{
  col_state (c, v, d);
  double x;
  if (rv_numeric (v, &x))
    minmax_add (&c->min, &c->max, x);
}

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

/* The first column whose end is after t. */
static guint
col_first_after (const Cols *k, gint64 t)
{
  guint lo = 0, hi = k->n;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (col_end (k, mid) <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
col_emit (JvmsHistory *h, const Col *c, JvmsSummaryCell *cell)
{
  if (!c->any)
    {
      cell->dominant = JVMS_VALUE_INIT_NULL;
      cell->flags = JVMS_SUMMARY_EMPTY;
      cell->min = cell->max = NAN;
      return;
    }
  /* A pure column's dominant is its value; values other than strings are converted here, as
   * a call per column was a tenth of a change list row. */
  RV d = c->mixed ? durations_best (&c->slots, c->first) : c->first;
  if (d.type == JVMS_VALUE_INT || d.type == JVMS_VALUE_DOUBLE)
    {
      cell->dominant.type = d.type;
      cell->dominant.i = (gint64) d.bits; /* a double's bits, as jvms_history_value_out copies */
    }
  else
    jvms_history_value_out (h, d.type, d.bits, &cell->dominant);
  cell->flags = c->mixed ? JVMS_SUMMARY_MIXED : 0;
  cell->min = c->min;
  cell->max = c->max;
}

typedef struct
{
  gint64  start, end;
  guint64 bits;
  guint8  type;
} Seg;

static void
cols_add_seg (const Cols *k, Col *cols, gint64 s, gint64 e, RV v)
{
  if (e <= s)
    return;
  for (guint c = col_first_after (k, s); c < k->n; c++)
    {
      gint64 cs = col_start (k, c), ce = col_end (k, c);
      if (cs >= e)
        break;
      gint64 a = MAX (s, cs), b = MIN (e, ce);
      if (b > a)
        col_value (&cols[c], v, b - a);
    }
}

/* Intervals of the rows read directly, gathered in one walk of the tree: (row, interval). */
typedef struct
{
  gint64  start, end;
  guint64 bits;
  guint32 row;
  guint8  type;
} RowIv;

typedef struct
{
  const guint32 *row_of; /* attribute -> row + 1 */
  GArray        *out;    /* RowIv */
} Gather;

static void
gather_one (gpointer data, guint32 attr, gint64 s, gint64 e, guint8 type, guint64 bits)
{
  Gather *g = data;
  RowIv r = { s, e, bits, g->row_of[attr] - 1, type };
  g_array_append_val (g->out, r);
}

static void
row_from_intervals (JvmsHistory *h, const Cols *k, const RowIv *iv, guint n_iv, Col *cols,
                    JvmsSummaryCell *row)
{
  for (guint c = 0; c < k->n; c++)
    col_reset (&cols[c]);
  for (guint i = 0; i < n_iv; i++)
    {
      RV v = { iv[i].bits, iv[i].type };
      cols_add_seg (k, cols, iv[i].start, iv[i].end, v);
    }
  for (guint c = 0; c < k->n; c++)
    col_emit (h, &cols[c], &row[c]);
}

/* A position in one attribute's change list, for the refinements of a row: they come in
 * increasing order of bucket start, so the cursor moves forward only, without a search of the
 * directory or a cache lookup per refinement. */
typedef struct
{
  JvmsHistory  *h;
  guint32       attr;
  guint         e, e_end;  /* directory entries of the attribute's change list */
  gboolean      loaded;    /* entry e is decoded into buf */
  GArray       *buf;       /* Change: entry e's, made when first needed */
  GArray       *next;      /* Change: the entries after e that a refinement reaches */
  const Change *ch;
  guint         nc;
  guint         i;         /* the first change after the last position asked */
} ChangeCursor;

static void
change_cursor_init (ChangeCursor *cc, JvmsHistory *h, guint32 attr)
{
  JvmsSummaryIndex *si = h->summary;
  memset (cc, 0, sizeof *cc);
  cc->h = h;
  cc->attr = attr;
  cc->e_end = si->first[attr + 1];
  cc->e = cc->e_end;
  while (cc->e > si->first[attr] && si->dir[cc->e - 1].level == CHANGES)
    cc->e--;
}

static void
change_cursor_clear (ChangeCursor *cc)
{
  g_clear_pointer (&cc->buf, g_array_unref);
  g_clear_pointer (&cc->next, g_array_unref);
}

static gboolean
change_cursor_load (ChangeCursor *cc, GError **error)
{
  const DirEntry *d = &cc->h->summary->dir[cc->e];
  g_autoptr (JvmsNode) blob = get_blob (cc->h, d, error);
  if (blob == NULL)
    return FALSE;
  if (cc->buf == NULL)
    cc->buf = g_array_new (FALSE, FALSE, sizeof (Change));
  cc->ch = blob_changes (cc->h, blob, d, cc->buf, &cc->nc, error);
  cc->i = 0;
  cc->loaded = cc->ch != NULL;
  return cc->loaded;
}

/* Moves to the first change after @t (@t not before the last position asked). */
static gboolean
change_cursor_seek (ChangeCursor *cc, gint64 t, GError **error)
{
  const DirEntry *dir = cc->h->summary->dir;
  if (cc->e < cc->e_end && dir[cc->e].last <= t)
    {
      guint lo = cc->e + 1, hi = cc->e_end;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (dir[mid].last <= t)
            lo = mid + 1;
          else
            hi = mid;
        }
      cc->e = lo;
      cc->loaded = FALSE;
    }
  if (cc->e >= cc->e_end)
    return TRUE;
  if (!cc->loaded && !change_cursor_load (cc, error))
    return FALSE;
  guint lo = cc->i, hi = cc->nc;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (cc->ch[mid].t <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  cc->i = lo;
  return TRUE;
}

/* Entry @r's changes, decoded into cc->next, for a read beside the cursor's run (past it, or the
 * run before it); *@blob keeps their blob referenced meanwhile. NULL on error. */
static const Change *
change_cursor_follow (ChangeCursor *cc, guint r, JvmsNode **blob, guint *nc, GError **error)
{
  const DirEntry *e = &cc->h->summary->dir[r];
  g_clear_pointer (blob, jvms_node_unref);
  *blob = get_blob (cc->h, e, error);
  if (*blob == NULL)
    return NULL;
  if (cc->next == NULL)
    cc->next = g_array_new (FALSE, FALSE, sizeof (Change));
  return blob_changes (cc->h, *blob, e, cc->next, nc, error);
}

/* The segments of the attribute's values over [a, b), exactly, from its change list: @v0
 * held at @t0 (<= a; a bucket start whose value the bucket records), so only changes in
 * (t0, b) are read. */
static gboolean
change_segs (ChangeCursor *cc, gint64 t0, RV v0, gint64 a, gint64 b, GArray *segs,
             GError **error)
{
  g_array_set_size (segs, 0);
  if (!change_cursor_seek (cc, t0, error))
    return FALSE;
  RV v = v0;
  gint64 cursor = a;
  const DirEntry *dir = cc->h->summary->dir;
  /* The cursor's run, then (rarely: a run holds about 1,000 changes) the following ones. */
  const Change *ch = cc->ch;
  guint nc = cc->nc, i = cc->i;
  g_autoptr (JvmsNode) next = NULL;
  for (guint e = cc->e; e < cc->e_end && dir[e].first < b;)
    {
      for (; i < nc && ch[i].t < b; i++)
        {
          if (ch[i].t > cursor)
            {
              Seg sg = { cursor, ch[i].t, v.bits, v.type };
              g_array_append_val (segs, sg);
              cursor = ch[i].t;
            }
          v = ch[i].v;
        }
      if (i < nc || ++e >= cc->e_end || dir[e].first >= b)
        break;
      if ((ch = change_cursor_follow (cc, e, &next, &nc, error)) == NULL)
        return FALSE;
      i = 0;
    }
  if (b > cursor)
    {
      Seg sg = { cursor, b, v.bits, v.type };
      g_array_append_val (segs, sg);
    }
  return TRUE;
}

/* Exact min/max of the attribute's values over [s, e), @v0 holding at @t0 <= s (a bucket
 * start, whose value the bucket records). Pieces come in time order, so the cursor only moves
 * forward: it finds the value at s by a search rather than by walking from t0, and reads only
 * the changes inside the piece. Reading from t0 (a cut bucket's right piece read the whole
 * bucket again) made a numeric row on levels read more changes than its change list holds in
 * the window. */
static gboolean
refine_minmax (ChangeCursor *cc, gint64 t0, RV v0, gint64 s, gint64 e, double *mn, double *mx,
               GError **error)
{
  if (!change_cursor_seek (cc, s, error))
    return FALSE;
  const DirEntry *dir = cc->h->summary->dir;
  g_autoptr (JvmsNode) next = NULL;
  const Change *ch;
  guint nc;
  RV v = v0;
  /* The last change at or before s, when after t0, gives the value at s. */
  if (cc->e < cc->e_end && cc->i > 0)
    {
      if (cc->ch[cc->i - 1].t > t0)
        v = cc->ch[cc->i - 1].v;
    }
  else if (cc->e > cc->h->summary->first[cc->attr] && dir[cc->e - 1].level == CHANGES &&
           dir[cc->e - 1].last > t0)
    {
      /* The run before the cursor's ends with it. */
      if ((ch = change_cursor_follow (cc, cc->e - 1, &next, &nc, error)) == NULL)
        return FALSE;
      v = ch[nc - 1].v;
    }
  double x;
  if (rv_numeric (v, &x))
    minmax_add (mn, mx, x);
  /* The changes inside (s, e): the cursor's run, then (rarely) the following ones. */
  ch = cc->ch;
  nc = cc->e < cc->e_end ? cc->nc : 0;
  guint i = cc->i;
  for (guint r = cc->e; r < cc->e_end && dir[r].first < e;)
    {
      for (; i < nc && ch[i].t < e; i++)
        if (rv_numeric (ch[i].v, &x))
          minmax_add (mn, mx, x);
      if (i < nc || ++r >= cc->e_end || dir[r].first >= e)
        break;
      if ((ch = change_cursor_follow (cc, r, &next, &nc, error)) == NULL)
        return FALSE;
      i = 0;
    }
  return TRUE;
}

/* One bucket's share of column c: [a, b) within the bucket [bs, be). */
static void
col_bucket_piece (Col *col, const Bucket *bk, gint64 bs, gint64 be, gint64 a, gint64 b)
{
  gboolean inside = (bk->flags & F_INSIDE) != 0;
  if (a == bs && b == be)
    {
      /* The whole bucket. */
      if (!inside)
        {
          col_value (col, bk->vf, b - a);
          return;
        }
      if (!col->any)
        {
          col->any = TRUE;
          col->first = bk->vf;
        }
      col->mixed = TRUE;
      durations_add (&col->slots, bk->dom, b - a);
      if (!isnan (bk->min))
        {
          minmax_add (&col->min, &col->max, bk->min);
          minmax_add (&col->min, &col->max, bk->max);
        }
      return;
    }
  if (!inside || b <= bk->f)
    {
      col_value (col, bk->vf, b - a);
      return;
    }
  if (a >= bk->l)
    {
      col_value (col, bk->vl, b - a);
      return;
    }
  /* A change lies inside the piece, or the piece lies between f and l (unknown): the caller
   * resolves the latter. Here: a change in (a, b) is certain when f > a or l < b. */
  RV known = a < bk->f ? bk->vf : bk->vl;
  col_value (col, known, b - a);
  col->mixed = TRUE;
  if (col->n_uncertain < 2 && !isnan (bk->min))
    {
      guint u = col->n_uncertain++;
      col->us[u] = a;
      col->ue[u] = b;
      col->ubs[u] = bs;
      col->uvf[u] = bk->vf;
      col->umin[u] = bk->min;
      col->umax[u] = bk->max;
    }
}

/* The value of @attr at @t: one path of the tree. */
static gboolean
value_at (JvmsHistory *h, guint32 attr, gint64 t, RV *out, GError **error)
{
  JvmsInterval at;
  if (!jvms_history_query_single (h, attr, t, &at, error))
    return FALSE;
  out->type = at.value.type;
  out->bits = 0;
  if (at.value.type == JVMS_VALUE_INT)
    out->bits = (guint64) at.value.i;
  else if (at.value.type == JVMS_VALUE_DOUBLE)
    memcpy (&out->bits, &at.value.d, 8);
  else if (at.value.type == JVMS_VALUE_STRING)
    out->bits = jvms_string_table_lookup (h->strings, at.value.s);
  return TRUE;
}

/* cols_add_seg for segments given in increasing time order: *c is the first column that may
 * hold the next segment, so no search per segment. */
static inline void
cols_add_seg_mono (const Cols *k, Col *cols, guint *c, gint64 s, gint64 e, RV v)
{
  if (e <= s)
    return;
  while (*c < k->n && col_end (k, *c) <= s)
    (*c)++;
  for (guint i = *c; i < k->n; i++)
    {
      gint64 cs = col_start (k, i), ce = col_end (k, i);
      if (cs >= e)
        break;
      gint64 a = MAX (s, cs), b = MIN (e, ce);
      if (b > a)
        col_value (&cols[i], v, b - a);
    }
}

/* A row from the attribute's change list: for columns narrower than its finest level, where a
 * column holds few of its changes (about 8 per bucket of that level at most). Exact: the
 * change list holds every change's time and value. */
/* Adds the segments between @n changes (from @ch) before @hi_t to the columns, from @cursor
 * holding @cur on; column @col holds @cursor. Most segments lie inside one column (a row reads
 * change lists only when a column holds a few of them), so that case is tested first against
 * the column's end kept in a local, without the column search of cols_add_seg_mono. */
/* The end of what column @c alone holds: none for a column narrower than a nanosecond, since
 * the columns after it hold the same instant (and nothing past the last column). */
static inline gint64
fast_end (const Cols *k, guint c)
{
  if (c >= k->n)
    return G_MAXINT64;
  return k->cs[c + 1] > k->cs[c] ? k->cs[c + 1] : G_MININT64;
}

static guint
cols_add_changes (const Cols *k, Col *cols, guint *col, gint64 *cursor, RV *cur,
                  const Change *ch, guint n, gint64 hi_t, gboolean want_range)
{
  guint c = *col, i = 0;
  gint64 at = *cursor;
  RV v = *cur;
  gint64 ce = fast_end (k, c);
  for (; i < n && ch[i].t < hi_t; i++)
    {
      gint64 t = ch[i].t;
      if (t <= ce)
        {
          if (t > at && c < k->n)
            {
              if (want_range)
                col_value (&cols[c], v, t - at);
              else
                col_state (&cols[c], v, t - at);
            }
        }
      else
        {
          cols_add_seg_mono (k, cols, &c, at, t, v);
          while (c < k->n && col_end (k, c) <= t)
            c++;
          ce = fast_end (k, c);
        }
      at = t;
      v = ch[i].v;
    }
  *col = c;
  *cursor = at;
  *cur = v;
  return i;
}

static gboolean
row_from_changes (JvmsHistory *h, const Cols *k, guint32 attr, gboolean want_range,
                  GArray *changes, Col *cols, JvmsSummaryCell *row, GError **error)
{
  JvmsSummaryIndex *si = h->summary;
  gint64 lo_t = MAX (k->t0, h->start_time);
  gint64 hi_t = MIN (col_end (k, k->n - 1), h->end_time);

  for (guint c = 0; c < k->n; c++)
    col_reset (&cols[c]);
  if (hi_t > lo_t)
    {
      RV cur = { 0, JVMS_VALUE_NULL };
      gboolean have_cur = FALSE;
      gint64 cursor = lo_t;
      guint col = 0;
      guint e_end = si->first[attr + 1], e_lo = e_end;
      while (e_lo > si->first[attr] && si->dir[e_lo - 1].level == CHANGES)
        e_lo--;
      /* The first run whose last change is after lo_t. */
      guint lo = e_lo, hi = e_end;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (si->dir[mid].last <= lo_t)
            lo = mid + 1;
          else
            hi = mid;
        }
      /* The run before lo ends at or before lo_t: when no run holds a change at or before lo_t
       * from lo on, the value at lo_t is that run's last (a slow attribute, a counter held
       * across the window, would otherwise cost a tree path, often through large inner nodes). */
      if (lo > e_lo && (lo == e_end || si->dir[lo].first > lo_t))
        {
          g_autoptr (JvmsNode) blob = get_blob (h, &si->dir[lo - 1], error);
          guint nc = 0;
          const Change *ch = blob ? blob_changes (h, blob, &si->dir[lo - 1], changes, &nc, error)
                                  : NULL;
          if (ch == NULL)
            return FALSE;
          cur = ch[nc - 1].v;
          have_cur = TRUE;
        }
      for (guint e = lo; e < e_end && si->dir[e].first < hi_t; e++)
        {
          g_autoptr (JvmsNode) blob = get_blob (h, &si->dir[e], error);
          if (blob == NULL)
            return FALSE;
          guint nc = 0;
          const Change *ch = blob_changes (h, blob, &si->dir[e], changes, &nc, error);
          if (ch == NULL)
            return FALSE;
          guint i0 = 0, i1 = nc;
          while (i0 < i1)
            {
              guint mid = (i0 + i1) / 2;
              if (ch[mid].t <= lo_t)
                i0 = mid + 1;
              else
                i1 = mid;
            }
          /* The value at lo_t: the last change at or before it, when this run holds it (a
           * path of the tree otherwise, which costs a node read per row). */
          if (!have_cur && i0 > 0)
            cur = ch[i0 - 1].v;
          else if (!have_cur && !value_at (h, attr, lo_t, &cur, error))
            return FALSE;
          have_cur = TRUE;
          cols_add_changes (k, cols, &col, &cursor, &cur, ch + i0, nc - i0, hi_t, want_range);
        }
      if (!have_cur && !value_at (h, attr, lo_t, &cur, error))
        return FALSE;
      cols_add_seg_mono (k, cols, &col, cursor, hi_t, cur);
    }
  for (guint c = 0; c < k->n; c++)
    col_emit (h, &cols[c], &row[c]);
  return TRUE;
}

/* With no bucket of the level in the window (buckets [b_first, ...)), the value across it from
 * the level itself: entry lo, the first whose last bucket is not before the window, holds the
 * first bucket after it, which starts with that value; without such an entry, the last bucket
 * before the window (entry lo - 1) ends with it. 1 when found, 0 when the level holds neither
 * (the caller asks the tree), -1 on error. */
static gint
level_value_across (JvmsHistory *h, gint64 b_first, guint e_lo, guint lo, guint e_end,
                    GArray *scratch, RV *out, GError **error)
{
  JvmsSummaryIndex *si = h->summary;
  guint e = lo < e_end ? lo : lo > e_lo ? lo - 1 : e_end;
  if (e >= e_end)
    return 0;
  g_autoptr (JvmsNode) blob = get_blob (h, &si->dir[e], error);
  guint nb = 0;
  const Bucket *bk = blob ? blob_run (h, blob, &si->dir[e], scratch, &nb, error) : NULL;
  if (bk == NULL)
    return -1;
  if (e < lo)
    {
      *out = bk[nb - 1].vl;
      return 1;
    }
  guint i0 = 0, i1 = nb;
  while (i0 < i1)
    {
      guint mid = (i0 + i1) / 2;
      if (bk[mid].index < b_first)
        i0 = mid + 1;
      else
        i1 = mid;
    }
  /* i0 < nb: the entry's last bucket is not before b_first. */
  *out = i0 < nb ? bk[i0].before : bk[nb - 1].vl;
  return 1;
}

static gboolean
row_from_levels (JvmsHistory *h, const Cols *k, guint32 attr, guint level, gboolean want_range,
                 GArray *segs, GArray *scratch, Col *cols, JvmsSummaryCell *row, GError **error)
{
  JvmsSummaryIndex *si = h->summary;
  guint shift = level_shift (level);
  gint64 lo_t = MAX (k->t0, h->start_time);
  gint64 hi_t = MIN (col_end (k, k->n - 1), h->end_time);

  ChangeCursor unknown_cc, refine_cc; /* two: the bucket walk, then the columns */
  change_cursor_init (&unknown_cc, h, attr);
  change_cursor_init (&refine_cc, h, attr);
  for (guint c = 0; c < k->n; c++)
    col_reset (&cols[c]);
  if (hi_t > lo_t)
    {
      /* The value at lo_t, known from the first bucket read: its value before it when it lies
       * after lo_t's bucket (nothing changes between stored buckets), unused when it is lo_t's
       * bucket (the bucket's own pieces cover lo_t). A path of the tree only when no bucket
       * lies in the window: it costs a leaf read per row. */
      RV cur = { 0, JVMS_VALUE_NULL };
      gboolean have_cur = FALSE;
      gint64 cursor = lo_t;
      guint col = 0; /* the first column that may hold what comes next */
      gint64 b_first = lo_t >> shift, b_last = (hi_t - 1) >> shift;
      /* Entries of (attr, level), sorted by first bucket: the first that may reach b_first. */
      guint e_lo = si->first[attr], e_hi = si->first[attr + 1];
      while (e_lo < e_hi && si->dir[e_lo].level < level)
        e_lo++;
      guint e_end = e_lo;
      while (e_end < e_hi && si->dir[e_end].level == level)
        e_end++;
      guint lo = e_lo, hi = e_end;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (si->dir[mid].last < b_first)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint e = lo; e < e_end && si->dir[e].first <= b_last; e++)
        {
          g_autoptr (JvmsNode) blob = get_blob (h, &si->dir[e], error);
          if (blob == NULL)
            goto fail;
          guint nb = 0;
          const Bucket *bk = blob_run (h, blob, &si->dir[e], scratch, &nb, error);
          if (bk == NULL)
            goto fail;
          guint i0 = 0, i1 = nb;
          while (i0 < i1)
            {
              guint mid = (i0 + i1) / 2;
              if (bk[mid].index < b_first)
                i0 = mid + 1;
              else
                i1 = mid;
            }
          for (guint i = i0; i < nb && bk[i].index <= b_last; i++)
            {
              const Bucket *b = &bk[i];
              gint64 bs = bucket_start (b->index, shift), be = bucket_end (b->index, shift);
              if (!have_cur)
                {
                  cur = b->before;
                  have_cur = TRUE;
                }
              cols_add_seg_mono (k, cols, &col, cursor, MAX (cursor, bs), cur);
              gint64 a = MAX (bs, lo_t), z = MIN (be, hi_t);
              while (col < k->n && col_end (k, col) <= a)
                col++;
              for (guint c = col; c < k->n; c++)
                {
                  gint64 cs = col_start (k, c), ce = col_end (k, c);
                  if (cs >= z)
                    break;
                  gint64 pa = MAX (a, cs), pz = MIN (z, ce);
                  if (pz <= pa)
                    continue;
                  /* The piece is a whole bucket only if it was not clipped by the window. */
                  gboolean whole = pa == bs && pz == be;
                  gboolean unknown = (b->flags & F_INSIDE) && !whole && b->f <= pa && b->l >= pz;
                  if (unknown)
                    {
                      /* A piece strictly between the first and last change: read it. */
                      if (!change_segs (&unknown_cc, bs, b->vf, pa, pz, segs, error))
                        goto fail;
                      for (guint s = 0; s < segs->len; s++)
                        {
                          const Seg *sg = &g_array_index (segs, Seg, s);
                          RV v = { sg->bits, sg->type };
                          gint64 x0 = MAX (sg->start, pa), x1 = MIN (sg->end, pz);
                          if (x1 > x0)
                            col_value (&cols[c], v, x1 - x0);
                        }
                    }
                  else
                    col_bucket_piece (&cols[c], b, bs, be, pa, pz);
                }
              cursor = MAX (cursor, MIN (be, hi_t));
              cur = b->vl;
            }
        }
      if (!have_cur)
        {
          gint found = level_value_across (h, b_first, e_lo, lo, e_end, scratch, &cur, error);
          if (found < 0 || (found == 0 && !value_at (h, attr, lo_t, &cur, error)))
            goto fail;
        }
      cols_add_seg_mono (k, cols, &col, cursor, hi_t, cur);
    }
  for (guint c = 0; c < k->n; c++)
    {
      Col *col = &cols[c];
      /* Without the range, a cut bucket costs nothing more: its min/max is what a column
       * boundary cutting a bucket leaves unknown, and reading it back from the change list was
       * most of a state lane's frame (every boundary of a busy row cuts a bucket). */
      for (guint u = 0; want_range && u < col->n_uncertain; u++)
        {
          if (!isnan (col->min) && col->umin[u] >= col->min && col->umax[u] <= col->max)
            continue; /* cannot widen the column's range */
          if (!refine_minmax (&refine_cc, col->ubs[u], col->uvf[u], col->us[u], col->ue[u],
                              &col->min, &col->max, error))
            goto fail;
        }
      col_emit (h, col, &row[c]);
    }
  change_cursor_clear (&unknown_cc);
  change_cursor_clear (&refine_cc);
  return TRUE;

fail:
  change_cursor_clear (&unknown_cc);
  change_cursor_clear (&refine_cc);
  return FALSE;
}

/* ---- rows of a complete history, spread over the cores ---- */

/* What one thread needs to compute rows: kept by the thread from query to query, since the
 * columns alone are 400 KB at 1,920 columns and fresh memory costs a page fault per page. */
typedef struct
{
  GArray *segs, *scratch, *changes;
  Col    *cols;
  guint   n_cols;
} RowBuffers;

static void
row_buffers_free (gpointer data)
{
  RowBuffers *b = data;
  g_array_unref (b->segs);
  g_array_unref (b->scratch);
  g_array_unref (b->changes);
  g_free (b->cols);
  g_free (b);
}

static GPrivate row_buffers_key = G_PRIVATE_INIT (row_buffers_free);

/* The calling thread's buffers, with room for @n_columns columns. */
static RowBuffers *
row_buffers_get (guint n_columns)
{
  RowBuffers *b = g_private_get (&row_buffers_key);
  if (b == NULL)
    {
      b = g_new0 (RowBuffers, 1);
      b->segs = g_array_new (FALSE, FALSE, sizeof (Seg));
      b->scratch = g_array_new (FALSE, FALSE, sizeof (Bucket));
      b->changes = g_array_new (FALSE, FALSE, sizeof (Change));
      g_private_set (&row_buffers_key, b);
    }
  if (b->n_cols < n_columns)
    {
      g_free (b->cols);
      b->cols = g_new0 (Col, n_columns); /* zero durations: col_reset clears only those used */
      b->n_cols = n_columns;
    }
  return b;
}

/* One row of a complete history: from the levels, or from the change list when the columns are
 * finer than the attribute's finest level. */
static gboolean
complete_row (JvmsHistory *h, const Cols *k, guint32 attr, gint level, gboolean want_range,
              RowBuffers *b, JvmsSummaryCell *row, GError **error)
{
  gint k0 = jvms_summary_index_finest (h->summary, attr);
  gboolean ok = k0 >= 0 && level >= k0
                  ? row_from_levels (h, k, attr, (guint) level, want_range, b->segs, b->scratch,
                                     b->cols, row, error)
                  : row_from_changes (h, k, attr, want_range, b->changes, b->cols, row, error);
  /* The same answer whichever way the row was read. */
  for (guint c = 0; ok && !want_range && c < k->n; c++)
    row[c].min = row[c].max = NAN;
  return ok;
}

/* The rows of one query, taken one at a time by the calling thread and by helpers of a shared
 * pool: a view's fifty rows at a new zoom level read and decode thousands of small blobs, and
 * the rows are independent (the node cache and the blob buffers are safe to share or per
 * thread). The caller waits for every helper it asked for, so the job may live on its stack. */
typedef struct
{
  JvmsHistory         *h;
  const Cols          *k;
  const JvmsAttribute *attributes;
  guint                n_attributes;
  gint                 level;
  const JvmsSummaryQueryFlags *row_flags; /* per row, or NULL: all rows @flags */
  JvmsSummaryQueryFlags        flags;
  JvmsSummaryCell     *cells;
  gint                 next;    /* atomic: the next row to take */
  gint                 failed;  /* atomic: stop taking rows */
  GMutex               lock;
  GCond                cond;
  guint                helpers; /* helpers not finished yet */
  GError              *error;   /* the first */
} RowJob;

static void
row_job_work (RowJob *job)
{
  RowBuffers *b = row_buffers_get (job->k->n);
  for (;;)
    {
      gint i = g_atomic_int_add (&job->next, 1);
      if (i >= (gint) job->n_attributes || g_atomic_int_get (&job->failed))
        break;
      GError *local = NULL;
      JvmsSummaryQueryFlags flags = job->row_flags ? job->row_flags[i] : job->flags;
      gboolean want_range = (flags & JVMS_SUMMARY_QUERY_NO_RANGE) == 0;
      if (!complete_row (job->h, job->k, job->attributes[i], job->level, want_range, b,
                         job->cells + (gsize) i * job->k->n, &local))
        {
          g_atomic_int_set (&job->failed, 1);
          g_mutex_lock (&job->lock);
          if (job->error == NULL)
            job->error = local;
          else
            g_error_free (local);
          g_mutex_unlock (&job->lock);
          break;
        }
    }
}

static void
row_job_help (gpointer data, gpointer user_data)
{
  RowJob *job = data;
  row_job_work (job);
  g_mutex_lock (&job->lock);
  job->helpers--;
  g_cond_signal (&job->cond);
  g_mutex_unlock (&job->lock);
}

static GThreadPool *
row_pool (guint *n_helpers)
{
  static GThreadPool *pool;
  static guint helpers;
  if (g_once_init_enter (&pool))
    {
      /* One helper per further core, a few at most: beyond that the blob reads contend. */
      helpers = CLAMP (g_get_num_processors (), 1, 8) - 1;
      GThreadPool *p = helpers > 0 ? g_thread_pool_new (row_job_help, NULL, (gint) helpers, FALSE, NULL)
                                   : NULL;
      g_once_init_leave (&pool, p ? p : (GThreadPool *) 1);
    }
  *n_helpers = helpers;
  return pool == (GThreadPool *) 1 ? NULL : pool;
}

/* Rows under this many are done by the caller alone: a helper's start-up would cost more. */
#define ROWS_PER_HELPER 4

static gboolean
complete_rows (JvmsHistory *h, const Cols *k, const JvmsAttribute *attributes, guint n_attributes,
               gint level, const JvmsSummaryQueryFlags *row_flags, JvmsSummaryQueryFlags flags,
               JvmsSummaryCell *cells, GError **error)
{
  RowJob job = { h, k, attributes, n_attributes, level, row_flags, flags, cells, 0, 0 };
  guint n_helpers = 0;
  GThreadPool *pool = row_pool (&n_helpers);
  n_helpers = MIN (n_helpers, n_attributes / ROWS_PER_HELPER);
  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  job.helpers = n_helpers;
  for (guint i = 0; i < n_helpers; i++)
    g_thread_pool_push (pool, &job, NULL);
  row_job_work (&job);
  g_mutex_lock (&job.lock);
  while (job.helpers > 0)
    g_cond_wait (&job.cond, &job.lock);
  g_mutex_unlock (&job.lock);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.cond);
  if (job.error != NULL)
    {
      g_propagate_error (error, job.error);
      return FALSE;
    }
  return TRUE;
}

gboolean
jvms_history_query_summary (JvmsHistory         *self,
                            gint64               t0,
                            gint64               t1,
                            const JvmsAttribute *attributes,
                            guint                n_attributes,
                            guint                n_columns,
                            JvmsSummaryCell     *cells,
                            GError             **error)
{
  return jvms_history_query_summary_full (self, t0, t1, attributes, n_attributes, n_columns,
                                          JVMS_SUMMARY_QUERY_DEFAULT, cells, error);
}

/* Rows with @row_flags[i], or all with @flags when @row_flags is NULL. */
static gboolean
summary_query (JvmsHistory *self, gint64 t0, gint64 t1, const JvmsAttribute *attributes,
               const JvmsSummaryQueryFlags *row_flags, JvmsSummaryQueryFlags flags,
               guint n_attributes, guint n_columns, JvmsSummaryCell *cells, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (attributes != NULL || n_attributes == 0, FALSE);
  g_return_val_if_fail (cells != NULL || n_attributes == 0 || n_columns == 0, FALSE);
  if (t1 <= t0 || n_columns == 0)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: summary of [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") in %u columns: "
                   "the window must be non-empty and the columns at least one",
                   self->path, t0, t1, n_columns);
      return FALSE;
    }
  gboolean locked = jvms_history_lock_if_live (self);
  gboolean ok = TRUE;
  guint n_attrs = jvms_attr_tree_size (self->attrs);
  for (guint i = 0; i < n_attributes; i++)
    if (attributes[i] >= n_attrs)
      {
        g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                     "%s: unknown attribute %u", self->path, attributes[i]);
        jvms_history_unlock_if (self, locked);
        return FALSE;
      }
  g_autofree gint64 *cs = g_new (gint64, n_columns + 1);
  for (guint c = 0; c <= n_columns; c++)
    cs[c] = t0 + (gint64) (((__int128) t1 - t0) * c / n_columns);
  Cols k = { t0, t1, n_columns, cs };
  gint64 width = (gint64) (((__int128) t1 - t0) / n_columns);
  /* The coarsest level whose buckets fit in a column. */
  gint level = -1;
  while (level + 1 < (gint) N_LEVELS && width >= ((gint64) 1 << level_shift ((guint) level + 1)))
    level++;
  /* Complete histories: rows from the levels, or from the change list when columns are finer
   * than the attribute's finest level. While building, rows from the intervals, which share
   * one walk of the tree. */
  if (self->open == NULL && self->summary != NULL)
    {
      /* What the rows keep goes into memory touched ahead of use, from the first query on. */
      jvms_node_memory_prepare ();
      ok = complete_rows (self, &k, attributes, n_attributes, level, row_flags, flags, cells,
                          error);
      jvms_history_unlock_if (self, locked);
      return ok;
    }
  g_autofree guint8 *want = g_new0 (guint8, MAX (n_attrs, 1));
  g_autofree Col *cols = g_new0 (Col, n_columns); /* zero durations, as col_reset expects */
  for (guint i = 0; i < n_attributes; i++)
    want[attributes[i]] = 1;
  /* Grouped by row with a counting sort: order within a row does not matter to columns. */
  g_autoptr (GArray) batch = g_array_new (FALSE, FALSE, sizeof (RowIv));
  g_autoptr (GArray) sorted = g_array_new (FALSE, FALSE, sizeof (RowIv));
  g_autofree guint *row_first = g_new0 (guint, n_attributes + 1);
  if (n_attributes > 0)
    {
      g_autofree guint32 *row_of = g_new0 (guint32, MAX (n_attrs, 1));
      for (guint i = n_attributes; i-- > 0;)
        row_of[attributes[i]] = i + 1;
      Gather g = { row_of, batch };
      ok = jvms_history_visit (self, t0, col_end (&k, n_columns - 1) - 1, want, gather_one, &g, error);
      memset (want, 0, MAX (n_attrs, 1));
      const RowIv *b = (const RowIv *) batch->data;
      for (guint j = 0; j < batch->len; j++)
        row_first[b[j].row + 1]++;
      for (guint i = 0; i < n_attributes; i++)
        row_first[i + 1] += row_first[i];
      g_array_set_size (sorted, batch->len);
      g_autofree guint *pos = g_memdup2 (row_first, sizeof (guint) * (n_attributes + 1));
      for (guint j = 0; j < batch->len; j++)
        g_array_index (sorted, RowIv, pos[b[j].row]++) = b[j];
    }
  for (guint i = 0; i < n_attributes && ok; i++)
    {
      JvmsSummaryCell *row = cells + (gsize) i * n_columns;
      /* A repeated attribute was gathered for its first row only. */
      guint j = i;
      for (guint p = 0; p < i; p++)
        if (attributes[p] == attributes[i])
          {
            j = p;
            break;
          }
      const RowIv *v = (const RowIv *) sorted->data;
      row_from_intervals (self, &k, v + row_first[j], row_first[j + 1] - row_first[j], cols, row);
      /* The same answer whichever way the row was read. */
      gboolean want_range = ((row_flags ? row_flags[i] : flags) & JVMS_SUMMARY_QUERY_NO_RANGE) == 0;
      for (guint c = 0; !want_range && c < n_columns; c++)
        row[c].min = row[c].max = NAN;
    }
  jvms_history_unlock_if (self, locked);
  return ok;
}

gboolean
jvms_history_query_summary_full (JvmsHistory              *self,
                                 gint64                    t0,
                                 gint64                    t1,
                                 const JvmsAttribute      *attributes,
                                 guint                     n_attributes,
                                 guint                     n_columns,
                                 JvmsSummaryQueryFlags     flags,
                                 JvmsSummaryCell          *cells,
                                 GError                  **error)
{
  return summary_query (self, t0, t1, attributes, NULL, flags, n_attributes, n_columns, cells,
                        error);
}

gboolean
jvms_history_query_summary_rows (JvmsHistory                 *self,
                                 gint64                       t0,
                                 gint64                       t1,
                                 const JvmsAttribute         *attributes,
                                 const JvmsSummaryQueryFlags *row_flags,
                                 guint                        n_attributes,
                                 guint                        n_columns,
                                 JvmsSummaryCell             *cells,
                                 GError                     **error)
{
  g_return_val_if_fail (row_flags != NULL || n_attributes == 0, FALSE);
  return summary_query (self, t0, t1, attributes, row_flags, JVMS_SUMMARY_QUERY_DEFAULT,
                        n_attributes, n_columns, cells, error);
}
