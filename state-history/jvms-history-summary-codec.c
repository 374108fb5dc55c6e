/* jvms-history-summary-codec.c: the payloads of summary blobs, level buckets and change lists,
 * encoded by the builder and decoded by queries (layout in jvms-history-format.h). Decoding
 * checks every varint, offset and value against what remains and against the run's level:
 * a run that does not decode makes the query fail with CORRUPT, never a wrong answer. */
#include "jvms-history-summary-private.h"

guint8 *
jvms_summary_put_value (guint8 *p, RV v)
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

/* get_value for the one-byte values most buckets hold (null, and the integers and strings
 * 0..30: states, waiter counts, a bucket's min/max), inline; the same result as get_value for
 * every input. A bucket holds up to six values, and a call each was a third of decoding it. */
static inline gboolean
value_get (const guint8 **pp, const guint8 *end, guint32 n_strings, RV *v)
{
  const guint8 *p = *pp;
  if (G_LIKELY (p < end))
    {
      guint8 tag = *p;
      guint small = tag >> 3;
      if (tag == JVMS_VALUE_NULL)
        {
          v->type = JVMS_VALUE_NULL;
          v->bits = 0;
          *pp = p + 1;
          return TRUE;
        }
      if (small && ((tag & 7) == JVMS_VALUE_INT ||
                    ((tag & 7) == JVMS_VALUE_STRING && small - 1 < n_strings)))
        {
          v->type = tag & 7;
          v->bits = small - 1;
          *pp = p + 1;
          return TRUE;
        }
      /* An integer of one or two varint bytes (a thread id: a lock's owner in each bucket). */
      if (tag == JVMS_VALUE_INT && end - p >= 3)
        {
          guint64 z;
          if (p[1] < 0x80)
            z = p[1], p += 2;
          else if (p[2] < 0x80)
            z = (guint64) (p[1] & 0x7F) | (guint64) p[2] << 7, p += 3;
          else
            return get_value (pp, end, n_strings, v);
          v->type = JVMS_VALUE_INT;
          v->bits = (guint64) jvms_unzigzag (z);
          *pp = p;
          return TRUE;
        }
    }
  return get_value (pp, end, n_strings, v);
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


/* Encodes one completed bucket at @p (at most JVMS_SUMMARY_BUCKET_MAX_BYTES): @b's index,
 * values and flags F_INSIDE / F_AT_START as the cascade closed it, its dominant and min/max.
 * The first bucket of a run (@first) carries its value before; later ones take it from the
 * previous bucket's last value and store their index as a delta from @prev_index. */
guint8 *
jvms_summary_bucket_put (guint8 *p, const Bucket *b, gboolean first, gint64 prev_index, guint k)
{
  RV dom = b->dom;
  guint8 flags = (b->flags & (F_INSIDE | F_AT_START)) | (!isnan (b->min) ? F_NUMERIC : 0);
  if (rv_eq (dom, b->vl))
    flags |= F_DOM_LAST;
  else if (rv_eq (dom, b->vf))
    flags |= F_DOM_FIRST;
  p = jvms_varint_put (p, first ? 0 : (guint64) (b->index - prev_index));
  *p++ = flags;
  if (first)
    p = jvms_summary_put_value (p, b->before);
  if (flags & F_AT_START)
    p = jvms_summary_put_value (p, b->vf);
  if (flags & F_INSIDE)
    {
      p = jvms_varint_put (p, (guint64) b->f - (guint64) bucket_start (b->index, level_shift (k)));
      p = jvms_varint_put (p, (guint64) b->l - (guint64) b->f);
      p = jvms_summary_put_value (p, b->vl);
    }
  if (!(flags & (F_DOM_LAST | F_DOM_FIRST)))
    p = jvms_summary_put_value (p, dom);
  if (flags & F_NUMERIC)
    {
      p = jvms_summary_put_value (p, numeric_rv (b->min));
      p = jvms_summary_put_value (p, numeric_rv (b->max));
    }
  return p;
}

/* Appends one run (one attribute's @n encoded buckets, or changes, at level @k) to @blob. */
void
jvms_summary_run_put (GByteArray *blob, guint32 attr, guint32 k, gint64 first, guint n,
                      const GByteArray *items)
{
  guint8 head[64];
  guint8 *p = jvms_varint_put (head, attr);
  p = jvms_varint_put (p, k);
  p = jvms_varint_put (p, jvms_zigzag (first));
  p = jvms_varint_put (p, n);
  p = jvms_varint_put (p, items->len);
  g_byte_array_append (blob, head, (guint) (p - head));
  g_byte_array_append (blob, items->data, items->len);
}

/* BMI2's PEXT gathers a varint's 7-bit groups in one instruction where the CPU has a fast one
 * (not the first two Zen generations, which take hundreds of cycles): a tenth of decoding a
 * change list. Inline assembly, so that the file needs no -mbmi2; used only after the check. */
#if defined(__x86_64__) && defined(__GNUC__)
static inline guint32
pext32 (guint32 w, guint32 mask)
{
  guint32 r;
  __asm__ ("pextl %2, %1, %0" : "=r" (r) : "r" (w), "r" (mask));
  return r;
}

static gboolean
fast_pext (void)
{
  static gsize known;
  if (g_once_init_enter (&known))
    {
      __builtin_cpu_init ();
      gboolean fast = __builtin_cpu_supports ("bmi2") && !__builtin_cpu_is ("znver1") &&
                      !__builtin_cpu_is ("znver2") && g_getenv ("JVMS_NO_PEXT") == NULL;
      g_once_init_leave (&known, fast ? 2 : 1);
    }
  return known == 2;
}
#else
static inline guint32
pext32 (guint32 w, guint32 mask)
{
  g_assert_not_reached ();
  return 0;
}

static gboolean
fast_pext (void)
{
  return FALSE;
}
#endif

/* A change's first varint (its time delta and code): deltas of a busy attribute take 2 to 4
 * bytes (4 from 262 µs on: a monitor's owner, a counter sampled every millisecond), which
 * jvms_varint_get reads in its loop; here without one. The same value and length for every
 * encoding jvms_varint_get accepts. */
static inline __attribute__ ((always_inline)) gboolean
change_varint_get_with (const guint8 **pp, const guint8 *end, guint64 *x, const gboolean pext)
{
  const guint8 *p = *pp;
  if (G_LIKELY (end - p >= 4))
    {
      /* Up to 4 bytes from one load, without a branch per byte: the lengths of a busy
       * attribute's deltas alternate between 2, 3 and 4 bytes, which a branch per byte
       * mispredicts. */
      guint32 w = jvms_get_u32le (p);
      guint32 stops = ~w & 0x80808080u;
      if (G_LIKELY (stops != 0))
        {
          /* The bytes up to the first without its top bit: the bits below that bit's. */
          w &= stops ^ (stops - 1);
          if (pext)
            *x = pext32 (w, 0x7F7F7F7Fu);
          else
            {
              /* 7-bit groups joined in pairs, then the pairs. */
              w &= 0x7F7F7F7Fu;
              w = (w & 0x007F007Fu) | (w >> 1 & 0x3F803F80u);
              *x = (w & 0x3FFFu) | (w >> 2 & 0xFFFC000u);
            }
          *pp = p + (__builtin_ctz (stops) + 1) / 8;
          return TRUE;
        }
    }
  return jvms_varint_get (pp, end, x);
}

static inline gboolean
change_varint_get (const guint8 **pp, const guint8 *end, guint64 *x)
{
  return change_varint_get_with (pp, end, x, FALSE);
}

/* A change's value: a double (a rate, a counter) or an integer (a thread id: a lock's owner)
 * without get_value's tests of the other types; the same result as get_value for every
 * input. */
static inline gboolean
change_value_get (const guint8 **pp, const guint8 *end, guint32 n_strings, RV *v)
{
  const guint8 *p = *pp;
  if (G_LIKELY (end - p >= 9))
    {
      if (p[0] == JVMS_VALUE_DOUBLE)
        {
          v->type = JVMS_VALUE_DOUBLE;
          v->bits = jvms_get_u64le (p + 1);
          *pp = p + 9;
          return TRUE;
        }
      if ((p[0] & 7) == JVMS_VALUE_INT)
        {
          /* Tag: (small + 1) << 3 | INT for 0..30, else INT and a zigzag varint. */
          guint small = p[0] >> 3;
          guint64 z;
          v->type = JVMS_VALUE_INT;
          if (small)
            {
              v->bits = small - 1;
              *pp = p + 1;
              return TRUE;
            }
          if (p[1] < 0x80)
            {
              z = p[1];
              p += 2;
            }
          else if (p[2] < 0x80)
            {
              z = (guint64) (p[1] & 0x7F) | (guint64) p[2] << 7;
              p += 3;
            }
          else if (p[3] < 0x80)
            {
              z = (guint64) (p[1] & 0x7F) | (guint64) (p[2] & 0x7F) << 7 | (guint64) p[3] << 14;
              p += 4;
            }
          else
            return get_value (pp, end, n_strings, v);
          v->bits = (guint64) jvms_unzigzag (z);
          *pp = p;
          return TRUE;
        }
    }
  return get_value (pp, end, n_strings, v);
}

/* A change's value from its code (@x & 7) and what follows. */
static inline gboolean
change_code_value (const guint8 **pp, const guint8 *end, guint32 n_strings, guint64 x, RV *v)
{
  guint code = (guint) (x & 7);
  if (code == CHG_ESCAPE)
    return change_value_get (pp, end, n_strings, v);
  /* A small integer or null without a branch: a row that alternates between them (a monitor's
   * waiters and null) mispredicted one a change. */
  gboolean is_int = code < CHG_SMALL_INTS;
  v->bits = is_int ? code : 0;
  v->type = is_int ? JVMS_VALUE_INT : JVMS_VALUE_NULL;
  return TRUE;
}

/* The first change has delta 0 (its time is the run's first); the others a delta of at least
 * 1, or 0 and a big delta after. The count is kept in a local and the first change decoded
 * before the loop: the loop tests nothing else per change (@ch's stores made the compiler
 * read run->n again every time). */
static inline __attribute__ ((always_inline)) gboolean
decode_changes_with (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
                     gint64 first, Change *ch, const gboolean pext)
{
  const guint8 *p = *pp;
  const guint n = run->n;
  gint64 t = first;
  guint64 x, d;
  if (n == 0)
    return TRUE;
  if (!change_varint_get_with (&p, end, &x, pext) || (x >> 3) != 0)
    return FALSE;
  ch[0].t = t;
  if (!change_code_value (&p, end, n_strings, x, &ch[0].v))
    return FALSE;
  for (guint i = 1; i < n; i++)
    {
      if (!change_varint_get_with (&p, end, &x, pext))
        return FALSE;
      d = x >> 3;
      if (G_UNLIKELY (d == 0) && (!jvms_varint_get (&p, end, &d) || d < CHG_BIG_DELTA))
        return FALSE;
      if (G_UNLIKELY (d > (guint64) G_MAXINT64 - (guint64) t))
        return FALSE;
      t += (gint64) d;
      ch[i].t = t;
      if (!change_code_value (&p, end, n_strings, x, &ch[i].v))
        return FALSE;
    }
  *pp = p;
  return TRUE;
}

static gboolean
decode_changes_plain (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
                      gint64 first, Change *ch)
{
  return decode_changes_with (pp, end, n_strings, run, first, ch, FALSE);
}

#if defined(__x86_64__) && defined(__GNUC__)
static gboolean
decode_changes_pext (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
                     gint64 first, Change *ch)
{
  return decode_changes_with (pp, end, n_strings, run, first, ch, TRUE);
}
#else
#define decode_changes_pext decode_changes_plain
#endif

/* The same changes either way, for every input (JVMS_NO_PEXT in the environment: without). */
static gboolean
decode_changes (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
                gint64 first, Change *ch)
{
  return fast_pext () ? decode_changes_pext (pp, end, n_strings, run, first, ch)
                      : decode_changes_plain (pp, end, n_strings, run, first, ch);
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
      /* Varints of up to 4 bytes without a loop, as a change's (offsets in a bucket of a
       * state's finest level take 2 or 3). */
      if (!change_varint_get (&p, end, &d) || (i > 0 && d == 0) || (i == 0 && d != 0) ||
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
          if (!value_get (&p, end, n_strings, &b->before))
            return FALSE;
        }
      else
        b->before = prev_vl;
      b->vf = b->before;
      if ((b->flags & F_AT_START) && !value_get (&p, end, n_strings, &b->vf))
        return FALSE;
      b->vl = b->vf;
      gint64 bs = bucket_start (index, shift), be = bucket_end (index, shift);
      if (b->flags & F_INSIDE)
        {
          if (!change_varint_get (&p, end, &fo) || !change_varint_get (&p, end, &lo) ||
              fo == 0 || fo >= (guint64) be - (guint64) bs || lo >= (guint64) be - (guint64) bs - fo ||
              !value_get (&p, end, n_strings, &b->vl))
            return FALSE;
          b->f = bs + (gint64) fo;
          b->l = b->f + (gint64) lo;
        }
      if (b->flags & F_DOM_LAST)
        b->dom = b->vl;
      else if (b->flags & F_DOM_FIRST)
        b->dom = b->vf;
      else if (!value_get (&p, end, n_strings, &b->dom))
        return FALSE;
      b->min = b->max = NAN;
      if (b->flags & F_NUMERIC)
        {
          RV mn, mx;
          if (!value_get (&p, end, n_strings, &mn) || !value_get (&p, end, n_strings, &mx) ||
              !rv_numeric (mn, &b->min) || !rv_numeric (mx, &b->max))
            return FALSE;
        }
      prev_vl = b->vl;
    }
  *pp = p;
  return TRUE;
}

/* ---- runs of a blob read through the directory ---- */

/* Here, beside the decoders, so that they are compiled into their only callers: a decoder
 * called across files made whole-trace queries (hundreds of runs decoded) about 5 % slower. */

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
const Bucket *
jvms_summary_blob_run (JvmsHistory *h, JvmsNode *n, const DirEntry *e, GArray *scratch,
                       guint *n_buckets, GError **error)
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
const Change *
jvms_summary_blob_changes (JvmsHistory *h, JvmsNode *n, const DirEntry *e, GArray *scratch,
                           guint *n_changes, GError **error)
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

/* ---- a row asked for its maximum alone, folded from a change list as it is decoded ---- */

/* A change's value as a number for a maximum: NaN for null, strings and NaN, which leave a
 * maximum as it is (col_max). */
static inline double
change_max_x (RV v)
{
  double x = NAN;
  if (v.type == JVMS_VALUE_INT)
    x = (double) (gint64) v.bits;
  else if (v.type == JVMS_VALUE_DOUBLE)
    memcpy (&x, &v.bits, 8);
  return x;
}

/* [f->at, @t) held f->x: every column it overlaps gets it into its maximum. Column f->c holds
 * f->at, and holds @t after (the next segment starts there). */
static inline __attribute__ ((always_inline)) void
max_fold_segment (MaxFold *f, gint64 t)
{
  const gint64 *cs = f->k->cs;
  guint c = f->c;
  if (t <= f->at)
    return;
  for (;;)
    {
      JvmsSummaryCell *cell = &f->row[c];
      cell->flags = 0;
      cell->max = isnan (cell->max) || f->x > cell->max ? f->x : cell->max;
      if (t < cs[c + 1])
        break;
      c++;
      if (t == cs[c] || c == f->k->n)
        break;
    }
  f->c = c;
  f->at = t;
}

/* @cmax into @cell's maximum, when a value @held in it. */
static inline void
fold_cell (JvmsSummaryCell *cell, gboolean held, double cmax)
{
  if (!held)
    return;
  cell->flags = 0;
  cell->max = isnan (cell->max) || cmax > cell->max ? cmax : cell->max;
}

void
jvms_summary_max_fold_end (MaxFold *f, gint64 t)
{
  max_fold_segment (f, t);
}

/* decode_changes_with's checks and changes, each folded into the row rather than stored. The
 * fold's position is kept in locals, and a segment inside the column of its start (nearly all:
 * a row reads change lists where a column holds several changes) updates that cell at once. */
static inline __attribute__ ((always_inline)) gboolean
fold_changes_with (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
                   gint64 first, MaxFold *f, gint64 *last, const gboolean pext)
{
  const guint8 *p = *pp;
  const guint n = run->n;
  const gint64 lo_t = f->lo_t, hi_t = f->hi_t;
  const gint64 *cs = f->k->cs;
  JvmsSummaryCell *row = f->row;
  guint c = f->c;
  gint64 at = f->at;
  double x = f->x;
  gint64 ce = c < f->k->n ? cs[c + 1] : G_MAXINT64;
  /* What the segments inside column c add, written into its cell when the fold leaves it. */
  gboolean held = FALSE;
  double cmax = NAN;
  gint64 t = first;
  guint64 code, d;
  RV v;
  if (n == 0)
    return TRUE;
  if (!change_varint_get_with (&p, end, &code, pext) || (code >> 3) != 0)
    return FALSE;
  for (guint i = 0;;)
    {
      if (!change_code_value (&p, end, n_strings, code, &v))
        return FALSE;
      /* Changes at or before lo_t give the value there; those from hi_t on are only checked. */
      if (t > lo_t && t < hi_t)
        {
          if (G_LIKELY (t < ce))
            {
              if (t > at)
                {
                  cmax = isnan (cmax) || x > cmax ? x : cmax;
                  held = TRUE;
                }
            }
          else
            {
              fold_cell (&row[c], held, cmax);
              f->c = c;
              f->at = at;
              f->x = x;
              max_fold_segment (f, t);
              c = f->c;
              ce = c < f->k->n ? cs[c + 1] : G_MAXINT64;
              held = FALSE;
              cmax = NAN;
            }
          at = t;
        }
      if (t < hi_t)
        x = change_max_x (v);
      if (++i == n)
        break;
      if (!change_varint_get_with (&p, end, &code, pext))
        return FALSE;
      d = code >> 3;
      if (G_UNLIKELY (d == 0) && (!jvms_varint_get (&p, end, &d) || d < CHG_BIG_DELTA))
        return FALSE;
      if (G_UNLIKELY (d > (guint64) G_MAXINT64 - (guint64) t))
        return FALSE;
      t += (gint64) d;
    }
  fold_cell (&row[c], held, cmax);
  f->c = c;
  f->at = at;
  f->x = x;
  *last = t;
  *pp = p;
  return TRUE;
}

static gboolean
fold_changes_plain (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
                    gint64 first, MaxFold *f, gint64 *last)
{
  return fold_changes_with (pp, end, n_strings, run, first, f, last, FALSE);
}

#if defined(__x86_64__) && defined(__GNUC__)
static gboolean
fold_changes_pext (const guint8 **pp, const guint8 *end, guint32 n_strings, const Run *run,
                   gint64 first, MaxFold *f, gint64 *last)
{
  return fold_changes_with (pp, end, n_strings, run, first, f, last, TRUE);
}
#else
#define fold_changes_pext fold_changes_plain
#endif

gboolean
jvms_summary_blob_fold_max (JvmsHistory *h, JvmsNode *n, const DirEntry *e, MaxFold *f,
                            GError **error)
{
  const Run *run = e->level == CHANGES ? find_run (n, e) : NULL;
  if (run != NULL && run->n > 0)
    {
      const guint8 *p = run->data;
      guint32 n_strings = jvms_string_table_size (h->strings);
      gint64 last = 0;
      /* The first change is checked against the directory before anything is folded. */
      if (run->first_index == e->first &&
          (fast_pext () ? fold_changes_pext (&p, run->data + run->len, n_strings, run,
                                             run->first_index, f, &last)
                        : fold_changes_plain (&p, run->data + run->len, n_strings, run,
                                              run->first_index, f, &last)) &&
          p == run->data + run->len && last == e->last)
        return TRUE;
    }
  g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
               "%s: summary blob at offset %" G_GUINT64_FORMAT " lacks the change list its "
               "directory entry describes (attribute %u)", h->path, e->offset, e->attribute);
  return FALSE;
}
