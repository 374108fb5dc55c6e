/* jvms-history-summary-columns.c: the column combiner. One row of a summary query: how long each
 * value held in each column, whether another value did (MIXED), and the min/max, from the
 * intervals (a history still being built), from the attribute's change list (columns finer
 * than its finest level) or from the coarsest level whose buckets fit in a column, cut pieces
 * refined from the change list. Design: docs/state-history.md, "Summary levels and change
 * lists". */
#include "jvms-history-summary-private.h"

static inline void
durations_reset (Durations *s)
{
  for (guint m = s->mask; m != 0; m &= m - 1)
    s->d[__builtin_ctz (m)] = 0;
  s->mask = 0;
  s->slots.n = 0;
}

static inline __attribute__ ((always_inline)) void
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

/* The value held longest, @fallback when none was added. Ties (rv_tie_rank): the table first,
 * in index order (the integers 0..14, then null), then the slots in the order the row met
 * their values; a later candidate wins only by holding strictly longer. */
static inline RV
durations_best (const Durations *s, RV fallback)
{
  RV best = fallback;
  gint64 best_d = G_MININT64;
  for (guint m = s->mask; m != 0; m &= m - 1)
    {
      guint i = (guint) __builtin_ctz (m);
      if (s->d[i] > best_d)
        {
          best_d = s->d[i];
          best = i == DIRECT - 1 ? (RV) { 0, JVMS_VALUE_NULL } : (RV) { i, JVMS_VALUE_INT };
        }
    }
  for (guint i = 0; i < s->slots.n; i++)
    if (s->slots.d[i] > best_d)
      {
        best_d = s->slots.d[i];
        best = s->slots.v[i];
      }
  return best;
}

static inline void
col_reset (Col *c)
{
  c->any = c->mixed = FALSE;
  durations_reset (&c->slots);
  c->min = c->max = NAN;
  c->bound = FALSE;
  c->n_uncertain = 0;
}

/* @v held for @d in the column: its flags and dominant only (state lanes ask no min/max). */
static inline __attribute__ ((always_inline)) void
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

static inline __attribute__ ((always_inline)) void
col_value (Col *c, RV v, gint64 d)
{
  col_state (c, v, d);
  double x;
  if (rv_numeric (v, &x))
    minmax_add (&c->min, &c->max, x);
}

/* @v held in the column: its maximum only (JVMS_SUMMARY_QUERY_MAX_ONLY, bars). Without a branch
 * on the value: NaN, which a null or a string gives, leaves the maximum (a waiters row
 * alternates between counts and null). */
static inline __attribute__ ((always_inline)) void
col_max (Col *c, RV v)
{
  if (G_UNLIKELY (!c->any))
    {
      c->any = TRUE;
      c->first = v;
    }
  double x = NAN;
  if (v.type == JVMS_VALUE_INT)
    x = (double) (gint64) v.bits;
  else if (v.type == JVMS_VALUE_DOUBLE)
    memcpy (&x, &v.bits, 8);
  c->max = isnan (c->max) || x > c->max ? x : c->max;
}

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

static inline void
cell_empty (JvmsSummaryCell *cell)
{
  cell->dominant = JVMS_VALUE_INIT_NULL;
  cell->flags = JVMS_SUMMARY_EMPTY;
  cell->min = cell->max = NAN;
}

/* Values other than strings are converted here, as a call per column was a tenth of a change
 * list row. */
static inline void
cell_dominant (JvmsHistory *h, RV d, JvmsSummaryCell *cell)
{
  if (d.type == JVMS_VALUE_INT || d.type == JVMS_VALUE_DOUBLE)
    {
      cell->dominant.type = d.type;
      cell->dominant.i = (gint64) d.bits; /* a double's bits, as jvms_history_value_out copies */
    }
  else
    jvms_history_value_out (h, d.type, d.bits, &cell->dominant);
}

static void
col_emit (JvmsHistory *h, const Col *c, JvmsSummaryCell *cell)
{
  if (!c->any)
    {
      cell_empty (cell);
      return;
    }
  /* A pure column's dominant is its value. */
  cell_dominant (h, c->mixed ? durations_best (&c->slots, c->first) : c->first, cell);
  cell->flags = (c->mixed ? JVMS_SUMMARY_MIXED : 0) | (c->bound ? JVMS_SUMMARY_RANGE_BOUND : 0);
  cell->min = c->min;
  cell->max = c->max;
}

/* The cell of a column where @v alone held: what col_emit gives for a Col that col_value
 * added only @v to. */
static void
cell_pure (JvmsHistory *h, RV v, JvmsSummaryCell *cell)
{
  double x;
  cell_dominant (h, v, cell);
  cell->flags = 0;
  cell->min = cell->max = NAN;
  if (rv_numeric (v, &x))
    cell->min = cell->max = x;
}

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

void
jvms_summary_row_from_intervals (JvmsHistory *h, const Cols *k, const RowIv *iv, guint n_iv,
                                 Col *cols, JvmsSummaryCell *row)
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
  guint         next_e;    /* the entry next holds, G_MAXUINT none: the cursor's next run is
                            * often the one a piece read past its run, decoded once */
  guint         cur_e;     /* the entry buf holds, G_MAXUINT none, and its last value */
  RV            cur_last;
  guint         prev_e;    /* an entry before it whose last value is known, G_MAXUINT none */
  RV            prev_last;
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
  cc->next_e = cc->cur_e = cc->prev_e = G_MAXUINT;
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
  /* The run it leaves: its last value is the value before the new run's first change. */
  if (cc->cur_e != G_MAXUINT)
    {
      cc->prev_e = cc->cur_e;
      cc->prev_last = cc->cur_last;
      cc->cur_e = G_MAXUINT;
    }
  if (cc->next != NULL && cc->next_e == cc->e)
    {
      /* Decoded already for a piece that read past the cursor's run. */
      GArray *t = cc->buf;
      cc->buf = cc->next;
      cc->next = t;
      cc->next_e = G_MAXUINT;
      cc->ch = (const Change *) cc->buf->data;
      cc->nc = cc->buf->len;
    }
  else
    {
      g_autoptr (JvmsNode) blob = jvms_summary_get_blob (cc->h, d, error);
      if (blob == NULL)
        return FALSE;
      if (cc->buf == NULL)
        cc->buf = g_array_new (FALSE, FALSE, sizeof (Change));
      cc->ch = jvms_summary_blob_changes (cc->h, blob, d, cc->buf, &cc->nc, error);
    }
  cc->i = 0;
  cc->loaded = cc->ch != NULL;
  if (cc->loaded)
    {
      cc->cur_e = cc->e;
      cc->cur_last = cc->ch[cc->nc - 1].v;
    }
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
  cc->next_e = G_MAXUINT;
  *blob = jvms_summary_get_blob (cc->h, e, error);
  if (*blob == NULL)
    return NULL;
  if (cc->next == NULL)
    cc->next = g_array_new (FALSE, FALSE, sizeof (Change));
  const Change *ch = jvms_summary_blob_changes (cc->h, *blob, e, cc->next, nc, error);
  if (ch != NULL)
    cc->next_e = r;
  return ch;
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
      /* The run before the cursor's ends with it: known when the cursor came from it. */
      if (cc->prev_e == cc->e - 1)
        v = cc->prev_last;
      else if ((ch = change_cursor_follow (cc, cc->e - 1, &next, &nc, error)) == NULL)
        return FALSE;
      else
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

/* A bucket piece's value: with its min/max only for a row that wants them (a state lane's
 * rows from the levels summed them for nothing). */
static inline __attribute__ ((always_inline)) void
col_piece_value (Col *col, RV v, gint64 d, const gboolean want_range)
{
  if (want_range)
    col_value (col, v, d);
  else
    col_state (col, v, d);
}

/* The piece [a, b) of the bucket @bk starting at @bs, whose values between its first and last
 * change are not known here: kept (at most two a column, the callers check) to be read at the
 * end only if its bucket's min/max could widen the column's. */
static inline __attribute__ ((always_inline)) void
col_add_uncertain (Col *col, const Bucket *bk, gint64 bs, gint64 a, gint64 b)
{
  guint u = col->n_uncertain++;
  col->us[u] = a;
  col->ue[u] = b;
  col->ubs[u] = bs;
  col->uvf[u] = bk->vf;
  col->umin[u] = bk->min;
  col->umax[u] = bk->max;
}

/* One bucket's share of column c: [a, b) within the bucket [bs, be). */
static inline __attribute__ ((always_inline)) void
col_bucket_piece (Col *col, const Bucket *bk, gint64 bs, gint64 be, gint64 a, gint64 b,
                  const gboolean want_range)
{
  gboolean inside = (bk->flags & F_INSIDE) != 0;
  if (a == bs && b == be)
    {
      /* The whole bucket. */
      if (!inside)
        {
          col_piece_value (col, bk->vf, b - a, want_range);
          return;
        }
      if (!col->any)
        {
          col->any = TRUE;
          col->first = bk->vf;
        }
      col->mixed = TRUE;
      durations_add (&col->slots, bk->dom, b - a);
      if (want_range && !isnan (bk->min))
        {
          minmax_add (&col->min, &col->max, bk->min);
          minmax_add (&col->min, &col->max, bk->max);
        }
      return;
    }
  if (!inside || b <= bk->f)
    {
      col_piece_value (col, bk->vf, b - a, want_range);
      return;
    }
  if (a >= bk->l)
    {
      col_piece_value (col, bk->vl, b - a, want_range);
      return;
    }
  /* A change lies inside the piece, or the piece lies between f and l (unknown): the caller
   * resolves the latter. Here: a change in (a, b) is certain when f > a or l < b. */
  RV known = a < bk->f ? bk->vf : bk->vl;
  col_piece_value (col, known, b - a, want_range);
  col->mixed = TRUE;
  if (want_range && col->n_uncertain < 2 && !isnan (bk->min))
    col_add_uncertain (col, bk, bs, a, b);
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

/* Moves *@c on to the first column from it that ends after @t. */
static inline void
col_advance (const Cols *k, guint *c, gint64 t)
{
  while (*c < k->n && col_end (k, *c) <= t)
    (*c)++;
}

/* A row from the attribute's change list: for columns narrower than its finest level, where a
 * column holds few of its changes (about 8 per bucket of that level at most). Exact: the
 * change list holds every change's time and value.
 *
 * The segments between changes come in time order, so a column a segment covers whole holds
 * that value alone (the segments before it ended at or before its start, those after it start
 * at or after its end): its cell is written at once. Only the columns segments cut are summed
 * in a Col, reset when first cut and written at the end. A zoomed-in state lane is mostly whole
 * columns (a thread holds one state across hundreds of them), and resetting, summing and
 * writing a Col for each of them was most of a threads frame's CPU (issue 27). A row from the
 * levels is written the same way: the stretches between its stored buckets are segments, and
 * the columns its buckets cut are summed. */
enum
{
  CUT_NONE,   /* no segment: empty */
  CUT_SUMMED, /* cut by segments: summed in its Col */
  CUT_WHOLE,  /* covered whole by one segment: its cell is written */
};

/* What a row sums in its columns. */
typedef enum
{
  SUM_STATE, /* durations and MIXED (JVMS_SUMMARY_QUERY_NO_RANGE) */
  SUM_VALUE, /* durations, MIXED, min and max */
  SUM_MAX,   /* the maximum (JVMS_SUMMARY_QUERY_MAX_ONLY) */
} SumMode;

typedef struct
{
  JvmsHistory     *h;
  const Cols      *k;
  Col             *cols;
  guint8          *cut;
  JvmsSummaryCell *row;
  SumMode          mode;
} RowWriter;

/* The Col of column @c, which a segment or a bucket cuts: reset when first cut. */
static inline Col *
row_col (RowWriter *r, guint c)
{
  Col *col = &r->cols[c];
  if (r->cut[c] != CUT_SUMMED)
    {
      col_reset (col);
      r->cut[c] = CUT_SUMMED;
    }
  return col;
}

/* @v held for @d in column @c, which a segment cuts. */
static inline void
row_add (RowWriter *r, guint c, RV v, gint64 d)
{
  Col *col = row_col (r, c);
  if (r->mode == SUM_MAX)
    col_max (col, v);
  else if (r->mode == SUM_VALUE)
    col_value (col, v, d);
  else
    col_state (col, v, d);
}

/* The segment [@s, @e) of @v, after every segment added before it: *c is the first column
 * that may hold it, so no search per segment. */
static inline void
row_add_seg (RowWriter *r, guint *c, gint64 s, gint64 e, RV v)
{
  const Cols *k = r->k;
  JvmsSummaryCell whole;
  gboolean have_whole = FALSE;
  if (e <= s)
    return;
  col_advance (k, c, s);
  for (guint i = *c; i < k->n; i++)
    {
      gint64 cs = col_start (k, i), ce = col_end (k, i);
      if (cs >= e)
        break;
      if (cs >= s && ce <= e)
        {
          if (!have_whole)
            {
              cell_pure (r->h, v, &whole);
              have_whole = TRUE;
            }
          r->row[i] = whole;
          r->cut[i] = CUT_WHOLE;
          continue;
        }
      gint64 a = MAX (s, cs), b = MIN (e, ce);
      if (b > a)
        row_add (r, i, v, b - a);
    }
}

/* The end of what column @c alone holds: none for a column narrower than a nanosecond, since
 * the columns after it hold the same instant (and nothing past the last column). */
static inline gint64
fast_end (const Cols *k, guint c)
{
  if (c >= k->n)
    return G_MAXINT64;
  return k->cs[c + 1] > k->cs[c] ? k->cs[c + 1] : G_MININT64;
}

/* Adds the segments between @n changes (from @ch) before @hi_t to the row, from @cursor
 * holding @cur on; column @col holds @cursor. Most segments lie inside one column (a row reads
 * change lists only when a column holds a few of them), so that case is tested first against
 * the column's end kept in a local, without the column walk of row_add_seg; the column's Col
 * is kept in a local too once cut (row_col's test was a tenth of the loop), and @mode is a
 * constant in each of the three copies (a branch a change less). */
static inline __attribute__ ((always_inline)) void
col_sum (Col *c, RV v, gint64 d, const SumMode mode)
{
  if (mode == SUM_MAX)
    col_max (c, v);
  else if (mode == SUM_VALUE)
    col_value (c, v, d);
  else
    col_state (c, v, d);
}

static inline __attribute__ ((always_inline)) guint
row_add_changes_with (RowWriter *r, guint *col, gint64 *cursor, RV *cur, const Change *ch,
                      guint n, gint64 hi_t, const SumMode mode)
{
  const Cols *k = r->k;
  guint c = *col, i = 0;
  gint64 at = *cursor;
  RV v = *cur;
  gint64 ce = fast_end (k, c);
  Col *cc = NULL; /* column c's, once row_col made it the one summed */
  for (; i < n && ch[i].t < hi_t; i++)
    {
      gint64 t = ch[i].t;
      if (t <= ce)
        {
          if (t > at && c < k->n)
            {
              if (cc == NULL)
                cc = row_col (r, c);
              col_sum (cc, v, t - at, mode);
            }
        }
      else if (c + 1 < k->n && at > k->cs[c] && t < k->cs[c + 2])
        {
          /* The segment runs from inside column c into the next, which it does not cover:
           * what row_add_seg does for it, without its walk (a crossing every few changes). */
          if (ce > at)
            {
              if (cc == NULL)
                cc = row_col (r, c);
              col_sum (cc, v, ce - at, mode);
            }
          c++;
          cc = row_col (r, c);
          col_sum (cc, v, t - ce, mode);
          ce = k->cs[c + 1];
        }
      else
        {
          row_add_seg (r, &c, at, t, v);
          col_advance (k, &c, t);
          ce = fast_end (k, c);
          cc = NULL;
        }
      at = t;
      v = ch[i].v;
    }
  *col = c;
  *cursor = at;
  *cur = v;
  return i;
}

static guint
row_add_changes (RowWriter *r, guint *col, gint64 *cursor, RV *cur, const Change *ch,
                 guint n, gint64 hi_t)
{
  switch (r->mode)
    {
    case SUM_MAX:
      return row_add_changes_with (r, col, cursor, cur, ch, n, hi_t, SUM_MAX);
    case SUM_VALUE:
      return row_add_changes_with (r, col, cursor, cur, ch, n, hi_t, SUM_VALUE);
    default:
      return row_add_changes_with (r, col, cursor, cur, ch, n, hi_t, SUM_STATE);
    }
}

/* @attr's change-list runs in the summary's directory, [*e_lo, *e_end) (the last entries of
 * its range), and the first of them whose last change is after @lo_t (*e_end when none is). */
static inline guint
change_runs_after (const JvmsSummaryIndex *si, guint32 attr, gint64 lo_t, guint *e_lo, guint *e_end)
{
  guint end = si->first[attr + 1], start = end;
  while (start > si->first[attr] && si->dir[start - 1].level == CHANGES)
    start--;
  guint lo = start, hi = end;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (si->dir[mid].last <= lo_t)
        lo = mid + 1;
      else
        hi = mid;
    }
  *e_lo = start;
  *e_end = end;
  return lo;
}

static gboolean
row_from_changes (JvmsHistory *h, const Cols *k, guint32 attr, SumMode mode,
                  GArray *changes, Col *cols, guint8 *cut, JvmsSummaryCell *row, GError **error)
{
  JvmsSummaryIndex *si = h->summary;
  gint64 lo_t = MAX (k->t0, h->start_time);
  gint64 hi_t = MIN (col_end (k, k->n - 1), h->end_time);
  RowWriter r = { h, k, cols, cut, row, mode };

  memset (cut, CUT_NONE, k->n);
  if (hi_t > lo_t)
    {
      RV cur = { 0, JVMS_VALUE_NULL };
      gboolean have_cur = FALSE;
      gint64 cursor = lo_t;
      guint col = 0;
      guint e_lo, e_end;
      guint lo = change_runs_after (si, attr, lo_t, &e_lo, &e_end);
      /* The run before lo ends at or before lo_t: when no run holds a change at or before lo_t
       * from lo on, the value at lo_t is that run's last (a slow attribute, a counter held
       * across the window, would otherwise cost a tree path, often through large inner nodes). */
      if (lo > e_lo && (lo == e_end || si->dir[lo].first > lo_t))
        {
          g_autoptr (JvmsNode) blob = jvms_summary_get_blob (h, &si->dir[lo - 1], error);
          guint nc = 0;
          const Change *ch = blob ? jvms_summary_blob_changes (h, blob, &si->dir[lo - 1], changes, &nc, error)
                                  : NULL;
          if (ch == NULL)
            return FALSE;
          cur = ch[nc - 1].v;
          have_cur = TRUE;
        }
      for (guint e = lo; e < e_end && si->dir[e].first < hi_t; e++)
        {
          g_autoptr (JvmsNode) blob = jvms_summary_get_blob (h, &si->dir[e], error);
          if (blob == NULL)
            return FALSE;
          guint nc = 0;
          const Change *ch = jvms_summary_blob_changes (h, blob, &si->dir[e], changes, &nc, error);
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
          row_add_changes (&r, &col, &cursor, &cur, ch + i0, nc - i0, hi_t);
        }
      if (!have_cur && !value_at (h, attr, lo_t, &cur, error))
        return FALSE;
      row_add_seg (&r, &col, cursor, hi_t, cur);
    }
  for (guint c = 0; c < k->n; c++)
    if (cut[c] == CUT_SUMMED)
      col_emit (h, &cols[c], &row[c]);
    else if (cut[c] == CUT_NONE)
      cell_empty (&row[c]);
  return TRUE;
}

/* row_from_changes for a row asked for its maximum alone, the changes folded into the cells as
 * they are decoded (MaxFold): the same cells, from the same runs and the same value at lo_t.
 * Columns at least 1 ns wide. */
static gboolean
row_max_from_changes (JvmsHistory *h, const Cols *k, guint32 attr, GArray *changes,
                      JvmsSummaryCell *row, GError **error)
{
  JvmsSummaryIndex *si = h->summary;
  gint64 lo_t = MAX (k->t0, h->start_time);
  gint64 hi_t = MIN (col_end (k, k->n - 1), h->end_time);

  for (guint c = 0; c < k->n; c++)
    cell_empty (&row[c]);
  if (hi_t <= lo_t)
    return TRUE;
  MaxFold f = { k, row, lo_t, hi_t, col_first_after (k, lo_t), lo_t, NAN };
  guint e_lo, e_end;
  guint lo = change_runs_after (si, attr, lo_t, &e_lo, &e_end);
  /* The value at lo_t, as row_from_changes finds it: the last change of the run before lo when
   * lo holds no change at or before lo_t; the tree's when no run does; else run lo's changes up
   * to lo_t, folded below. */
  if (lo == e_end || si->dir[lo].first > lo_t)
    {
      RV cur;
      if (lo > e_lo)
        {
          g_autoptr (JvmsNode) blob = jvms_summary_get_blob (h, &si->dir[lo - 1], error);
          guint nc = 0;
          const Change *ch = blob ? jvms_summary_blob_changes (h, blob, &si->dir[lo - 1], changes, &nc, error)
                                  : NULL;
          if (ch == NULL)
            return FALSE;
          cur = ch[nc - 1].v;
        }
      else if (!value_at (h, attr, lo_t, &cur, error))
        return FALSE;
      f.x = NAN;
      if (cur.type == JVMS_VALUE_INT)
        f.x = (double) (gint64) cur.bits;
      else if (cur.type == JVMS_VALUE_DOUBLE)
        memcpy (&f.x, &cur.bits, 8);
    }
  for (guint e = lo; e < e_end && si->dir[e].first < hi_t; e++)
    {
      g_autoptr (JvmsNode) blob = jvms_summary_get_blob (h, &si->dir[e], error);
      if (blob == NULL || !jvms_summary_blob_fold_max (h, blob, &si->dir[e], &f, error))
        return FALSE;
    }
  jvms_summary_max_fold_end (&f, hi_t);
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
  g_autoptr (JvmsNode) blob = jvms_summary_get_blob (h, &si->dir[e], error);
  guint nb = 0;
  const Bucket *bk = blob ? jvms_summary_blob_run (h, blob, &si->dir[e], scratch, &nb, error) : NULL;
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
row_from_levels (JvmsHistory *h, const Cols *k, guint32 attr, guint level, SumMode mode,
                 gboolean bound, GArray *segs, GArray *scratch, Col *cols, guint8 *cut,
                 JvmsSummaryCell *row, GError **error)
{
  JvmsSummaryIndex *si = h->summary;
  guint shift = level_shift (level);
  gint64 lo_t = MAX (k->t0, h->start_time);
  gint64 hi_t = MIN (col_end (k, k->n - 1), h->end_time);

  gboolean want_range = mode != SUM_STATE;
  RowWriter r = { h, k, cols, cut, row, mode };

  ChangeCursor unknown_cc, refine_cc; /* two: the bucket walk, then the columns */
  change_cursor_init (&unknown_cc, h, attr);
  change_cursor_init (&refine_cc, h, attr);
  memset (cut, CUT_NONE, k->n);
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
          g_autoptr (JvmsNode) blob = jvms_summary_get_blob (h, &si->dir[e], error);
          if (blob == NULL)
            goto fail;
          guint nb = 0;
          const Bucket *bk = jvms_summary_blob_run (h, blob, &si->dir[e], scratch, &nb, error);
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
              row_add_seg (&r, &col, cursor, MAX (cursor, bs), cur);
              gint64 a = MAX (bs, lo_t), z = MIN (be, hi_t);
              col_advance (k, &col, a);
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
                  Col *uc;
                  if (unknown && mode == SUM_MAX &&
                      (isnan (b->min) || (uc = row_col (&r, c))->n_uncertain < 2))
                    {
                      /* The maximum alone: the piece is read at the end only if its bucket's
                       * could raise the column's, as a cut piece's (below). */
                      uc = row_col (&r, c);
                      if (!uc->any)
                        {
                          uc->any = TRUE;
                          uc->first = b->vf;
                        }
                      if (!isnan (b->min))
                        col_add_uncertain (uc, b, bs, pa, pz);
                    }
                  else if (unknown)
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
                            col_value (row_col (&r, c), v, x1 - x0);
                        }
                    }
                  else if (want_range)
                    col_bucket_piece (row_col (&r, c), b, bs, be, pa, pz, TRUE);
                  else
                    col_bucket_piece (row_col (&r, c), b, bs, be, pa, pz, FALSE);
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
      row_add_seg (&r, &col, cursor, hi_t, cur);
    }
  for (guint c = 0; c < k->n; c++)
    {
      Col *col = &cols[c];
      if (cut[c] != CUT_SUMMED)
        {
          if (cut[c] == CUT_NONE)
            cell_empty (&row[c]);
          continue;
        }
      /* Without the range, a cut bucket costs nothing more: its min/max is what a column
       * boundary cutting a bucket leaves unknown, and reading it back from the change list was
       * most of a state lane's frame (every boundary of a busy row cuts a bucket). */
      for (guint u = 0; want_range && u < col->n_uncertain; u++)
        {
          if (mode == SUM_MAX ? !isnan (col->max) && col->umax[u] <= col->max
                              : !isnan (col->min) && col->umin[u] >= col->min && col->umax[u] <= col->max)
            continue; /* cannot widen the column's range (raise its maximum) */
          if (bound)
            {
              /* The whole bucket's extremes: they contain the piece's. */
              minmax_add (&col->min, &col->max, col->umin[u]);
              minmax_add (&col->min, &col->max, col->umax[u]);
              col->bound = TRUE;
              continue;
            }
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

/* One row of a complete history: from the levels, or from the change list when the columns are
 * finer than the attribute's finest level. */
gboolean
jvms_summary_complete_row (JvmsHistory *h, const Cols *k, guint32 attr, gint level,
                           JvmsSummaryQueryFlags flags, RowBuffers *b, JvmsSummaryCell *row,
                           GError **error)
{
  gint k0 = jvms_summary_index_finest (h->summary, attr);
  SumMode mode = (flags & JVMS_SUMMARY_QUERY_NO_RANGE)     ? SUM_STATE
               : (flags & JVMS_SUMMARY_QUERY_MAX_ONLY) ? SUM_MAX
                                                           : SUM_VALUE;
  gboolean bound = (flags & JVMS_SUMMARY_QUERY_RANGE_BOUND) != 0;
  /* A maximum alone is read from the change list, folded as it is decoded, wherever the row
   * reads it, and also where columns are finer than two buckets of the finest level (unless a
   * bound will do): the maxima of the pieces that column edges cut from buckets, which the
   * levels do not hold, made those rows read nearly every change anyway (the locks view's
   * waiters over the whole trace). */
  if (mode == SUM_MAX && (k0 < 0 || level < k0 || (level == k0 && !bound)) &&
      k->t1 - k->t0 >= (gint64) k->n)
    {
      gboolean ok = row_max_from_changes (h, k, attr, b->changes, row, error);
      if (ok)
        jvms_summary_row_strip (row, k->n, flags);
      return ok;
    }
  gboolean ok = k0 >= 0 && level >= k0
                  ? row_from_levels (h, k, attr, (guint) level, mode, bound, b->segs,
                                     b->scratch, b->cols, b->cut, row, error)
                  : row_from_changes (h, k, attr, mode, b->changes, b->cols, b->cut, row, error);
  /* The same answer whichever way the row was read. */
  if (ok)
    jvms_summary_row_strip (row, k->n, flags);
  return ok;
}
