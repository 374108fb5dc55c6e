/* jvms-history-summary-cascade.c: the summary levels and change lists, built in the tree's
 * streaming pass (design: docs/state-history.md, "Summary levels and change lists").
 *
 * Each attribute's first intervals choose its finest level k0; every change then feeds level
 * k0's open bucket and the attribute's change list; a bucket, once complete, is encoded
 * (jvms-history-summary-codec.c) and fed to the level above as one record, so a change costs
 * about 1 + 1/2 + 1/4 ... bucket updates whatever the number of levels. Encoded buckets and
 * changes wait in small per-(attribute, level) buffers, packed into lz4 blobs of about 4 KiB;
 * the runs written are listed in the directory (jvms-history-summary-directory.c) that close()
 * writes. Memory: per attribute, plus the pending buffers (bounded), plus 40 bytes a run. */
#include "jvms-history-summary-private.h"

#define PROBE          64
G_STATIC_ASSERT ((PROBE & (PROBE - 1)) == 0); /* the probe array doubles up to PROBE */
/* The coarsest finest level: 2^24 ns (16.8 ms). A slower attribute still gets buckets that
 * fine (few of them hold a change), so that views at 16.8 ms a column or more read levels
 * for every row rather than change lists. */
#define K_CAP          14
#define DENSITY        8
#define FLUSH_BYTES    4096
#define PENDING_BUDGET (32u * 1024u * 1024u)
/* Change list buffers of all attributes together: a change run is flushed at FLUSH_BYTES, or
 * earlier with many attributes (each attribute's buffer is reserved whole, and 10,000 of
 * 4 KiB took 40 MiB of the builder's memory). Not much earlier: every run costs a directory
 * entry (40 bytes in the file, the builder and the reader) and a blob header. */
#define CHG_BUDGET     (16u * 1024u * 1024u)
#define CHG_MIN_FLUSH  512u

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
  guint       out_cap;  /* bytes allocated for @out (it only grows): for the memory accounting */
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


struct _JvmsSummaryBuilder
{
  GArray         *attrs; /* Attr */
  GArray         *dir;   /* DirEntry */
  gsize           pending;
  gsize           budget;  /* pending bytes that make flush_all pack every run */
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
  sb->budget = PENDING_BUDGET;
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

/* ---- writing runs ---- */

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
  jvms_summary_run_put (bytes, attr, k, o->out_first, o->out_n, o->out);
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
      jvms_summary_run_put (sb->pack, a, k, o->out_first, o->out_n, o->out);
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
  guint8 buf[BUCKET_MAX_BYTES];
  Bucket b = {
    .index = lv->index, .f = lv->f, .l = lv->l, .before = lv->before, .vf = lv->vf,
    .vl = lv->vl, .dom = slots_best (&lv->slots, lv->vl), .min = lv->min, .max = lv->max,
    .flags = (guint8) ((lv->inside ? F_INSIDE : 0) | (lv->at_start ? F_AT_START : 0)),
  };
  if (lv->o.out == NULL)
    {
      lv->o.out = g_byte_array_sized_new (64);
      lv->o.out_cap = 64;
    }
  gboolean first = lv->o.out_n == 0;
  guint8 *p = jvms_summary_bucket_put (buf, &b, first, lv->o.out_prev, k);
  if (first)
    lv->o.out_first = lv->index;
  lv->o.out_last = lv->index;
  lv->o.out_prev = lv->index;
  lv->o.out_n++;
  g_byte_array_append (lv->o.out, buf, (guint) (p - buf));
  if (lv->o.out->len > lv->o.out_cap) /* GByteArray grows to the next power of two */
    lv->o.out_cap = 1u << g_bit_storage (lv->o.out->len - 1);
  sb->pending += (gsize) (p - buf);
  if (lv->o.out->len >= FLUSH_BYTES)
    return flush_level (h, sb, attr, k, &lv->o, error);
  if (sb->pending > sb->budget)
    return flush_all (h, sb, error);
  return TRUE;
}

/* Appends one change to @attr's change list (format in jvms-history-format.h). */
/* Room for @need more bytes in @o, by doubling. A change buffer starts small: most attributes
 * change a few times in all (a thread's name, its pid), and a buffer reserved at the flush
 * threshold cost 1 to 8 KiB for each of them (900 MB for 100,000 threads' 550,000 attributes). */
static void
out_reserve (Out *o, guint need)
{
  guint len = o->out->len;
  if (len + need <= o->out_cap)
    return;
  guint cap = MAX (o->out_cap * 2, len + need);
  g_byte_array_set_size (o->out, cap); /* GByteArray allocates the next power of two */
  o->out->len = len;
  o->out_cap = 1u << g_bit_storage (cap - 1);
}

static gboolean
store_change (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, Out *o, gint64 t, RV v,
              GError **error)
{
  /* One change a call, for every interval: written in place, after making room for the
   * largest change (CHG_MAX_BYTES). The buffer is flushed once it passes @flush, which only
   * shrinks as attributes are added, so it never holds more than @flush + CHG_MAX_BYTES. */
  guint flush = CLAMP (CHG_BUDGET / MAX (jvms_attr_tree_size (h->attrs), 1u), CHG_MIN_FLUSH,
                       FLUSH_BYTES);
  if (o->out == NULL)
    {
      o->out = g_byte_array_sized_new (64);
      o->out_cap = 64;
    }
  out_reserve (o, CHG_MAX_BYTES);
  guint8 *p0 = o->out->data + o->out->len;
  /* >= 1 after the first: changes are strictly ordered */
  guint8 *p = change_put (p0, o->out_n == 0, (guint64) t - (guint64) o->out_prev, v);
  if (o->out_n == 0)
    o->out_first = t;
  o->out_last = t;
  o->out_prev = t;
  o->out_n++;
  o->out->len += (guint) (p - p0);
  sb->pending += (gsize) (p - p0);
  if (o->out->len >= flush)
    return flush_level (h, sb, attr, CHANGES, o, error);
  if (sb->pending > sb->budget)
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
      /* Intervals of centuries (a clock offset gone wrong) must not overflow the target. */
      gint64 target = mean > G_MAXINT64 / DENSITY ? G_MAXINT64 : mean * DENSITY;
      k0 = 0;
      while (k0 < K_CAP && ((gint64) 1 << level_shift ((guint) k0)) < target)
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
  g_autofree gint8 *finest = g_new (gint8, MAX (n_attrs, 1));
  for (guint a = 0; a < n_attrs; a++)
    {
      Attr *at = &g_array_index (sb->attrs, Attr, a);
      finest[a] = at->decided ? (gint8) at->k0 : -1;
    }
  *directory = jvms_summary_directory_write (sb->dir, finest, n_attrs);
  return TRUE;
}

/* ---- memory, for tests ---- */

void
jvms_summary_builder_set_budget (JvmsSummaryBuilder *sb, gsize bytes)
{
  sb->budget = bytes ? bytes : PENDING_BUDGET;
}

/* Adds what the summary builder holds to @m: the state of every attribute (probe array, levels
 * and their buffers, change buffer), the pending bytes, the blob being packed, the directory. */
void
jvms_summary_builder_memory (JvmsSummaryBuilder *sb, JvmsBuilderMemory *m)
{
  gsize bytes = (gsize) sb->attrs->len * sizeof (Attr);
  for (guint a = 0; a < sb->attrs->len; a++)
    {
      const Attr *at = &g_array_index (sb->attrs, Attr, a);
      if (at->probe)
        bytes += (gsize) MAX (2u, 1u << g_bit_storage (MAX (at->n_probe, 1u) - 1)) * sizeof (Probe);
      bytes += (gsize) at->n_levels * sizeof (Level);
      for (guint k = 0; k < at->n_levels; k++)
        bytes += at->levels[k].o.out ? at->levels[k].o.out_cap : 0;
      bytes += at->chg.out ? at->chg.out_cap : 0;
      m->summary_levels += at->n_levels;
    }
  m->per_attribute += bytes;
  m->summary_pending += sb->pending;
  m->summary_pack += sb->pack->len + (gsize) sb->pack_runs->len * sizeof (DirEntry);
  m->summary_runs += sb->dir->len;
  m->summary_directory += (gsize) sb->dir->len * sizeof (DirEntry);
  m->scratch += sb->enc.payload_cap + sb->enc.blob_cap;
}
