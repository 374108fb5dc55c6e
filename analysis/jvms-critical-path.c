/* jvms-critical-path.c: see jvms-critical-path.h; the rules are docs/critical-path.md's. */
#include "jvms-critical-path.h"
#include "jvms-critical-path-private.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "jvms-json.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"

/* The first read of a thread over a window, and the longest (ns): see PathThread. */
#define CHUNK_MIN ((gint64) 1 << 20)
#define CHUNK_MAX ((gint64) 1 << 28)
/* The same for a CPU's window (CpuWindow): a longest chunk of 2^28 ns read a CPU's switches far
 * past where the walk waited for it next; on bench/causality's p99 question 2^22 to 2^25 took
 * about 1.3 % fewer instructions than 2^20 to 2^28, and any longest chunk of 2^24 to 2^26 about
 * as few (docs/benchmarks.md, the fifteenth run). */
#define CPU_CHUNK_MIN ((gint64) 1 << 22)
#define CPU_CHUNK_MAX ((gint64) 1 << 25)

/* Hand-offs followed in a chain at most: a chain this deep is a loop of wrong wakers. */
#define MAX_DEPTH    128
/* Segments at most: past this, the rest of a window stays on its thread, "not followed". A
 * test lowers it (jvms-critical-path-private.h) to see it hold on a small history. */
#define MAX_SEGMENTS (1u << 20)
static guint max_segments = MAX_SEGMENTS;

void
jvms_critical_path_set_max_segments (guint max)
{
  max_segments = max > 0 ? max : MAX_SEGMENTS;
}

/* The least segment array kept for the next path (segments_give). A test lowers it
 * (jvms-critical-path-private.h) to see kept arrays reused. */
#define SEG_KEEP_MIN (1u << 16)
static guint seg_keep_min = SEG_KEEP_MIN;

void
jvms_critical_path_set_keep_min (guint segments)
{
  seg_keep_min = segments > 0 ? segments : SEG_KEEP_MIN;
}

/* Whether a cause's spans are merged as they come rather than kept (add_span); a test turns
 * it off to compare (jvms-critical-path-private.h). */
static gboolean stream_spans = TRUE;

void
jvms_critical_path_set_stream_spans (gboolean stream)
{
  stream_spans = stream;
}

/* Every walk taken as having met spans out of order (a test of the computation again). */
static gboolean force_out_of_order;

void
jvms_critical_path_force_spans_out_of_order (gboolean force)
{
  force_out_of_order = force;
}

enum { KERNEL, WAKER, DEVICE, CPU, SYSCALL, USER, DETAIL, OWNER, N_LEAVES };

/* The kinds of cause (JvmsPathCause.kind). */
enum { CAUSE_WAKER, CAUSE_HOLDER, CAUSE_PREEMPTER, N_CAUSES };
static const char * const cause_kinds[N_CAUSES] = { "waker", "holder", "preempted-by" };

/* Who had a CPU the path's threads waited for: its current thread, read in chunks as the walk
 * goes back, as a thread's states are (see PathThread). The walk meets its pieces waiting for a
 * CPU in reverse time order, just after it read the same time of their threads, so these reads
 * find their nodes in the node cache. (A pass over the range's CPUs after the walk, as before,
 * read every node of the range once more: docs/critical-path.md, "Speed".) Each CPU has a window
 * of its own, read when a wait for that CPU meets it: one window of every CPU seen, read as one
 * query, decoded every CPU's switches all along the walk, where a busy thread waits for one CPU
 * here and another there (on bench/causality's p99 question, 2.72 M of the 4.72 M intervals it
 * decoded were the two CPUs' current threads; docs/benchmarks.md, the fifteenth run). */
typedef struct
{
  JvmsAttribute attr;   /* CPUs/<n>/current-thread */
  gint64        cpu;    /* n */
  GArray       *ivs;    /* JvmsInterval meeting [lo, hi], in time order */
  guint         hint;   /* where the last search of ivs ended (first_ending_after) */
  gboolean      read;   /* ivs hold [lo, hi] */
  gint64        lo, hi, chunk;
} CpuWindow;

/* A thread the path visits. Its states are read over the windows the path needs of it, not
 * over the whole range: a path over minutes may visit a thread for a millisecond here and
 * there, and reading each visited thread over the whole range was most of a long path's cost
 * (docs/benchmarks.md). The walk goes back in time and reads each thread in chunks as it goes,
 * so that every thread's reads (and the node cache) stay near the same time: a chunk at first
 * CHUNK_MIN ns long, twice as long at each further read of the thread, CHUNK_MAX at most. One
 * window is kept a thread. */
typedef struct
{
  gint64        tid;
  const char   *name;
  JvmsAttribute attrs[N_LEAVES];  /* the leaves the thread has, in slot order */
  guint         slots[N_LEAVES];  /* the leaf of each of attrs */
  guint         n_attrs;
  gboolean      read;             /* ivs hold [lo, hi] */
  gint64        lo, hi;
  gint64        chunk;            /* the length of its next read */
  GArray       *ivs[N_LEAVES];    /* JvmsInterval meeting [lo, hi], not clipped, in time order */
  guint         hint[N_LEAVES];   /* where the last search of each ended (first_ending_after) */
} PathThread;

/* Where a thread was a cause of one kind: its spans, gint64 pairs [from, to) (as the GArray of
 * jvms_evidence_spans_new holds them), merged as jvms_evidence_add_span merges them. */
typedef struct
{
  gint64  tid;
  gint64 *pairs;
  guint   n, cap; /* pairs */
  /* The last pair, the one a span may merge into, kept here (and written to pairs[n - 1] only
   * when the next comes, cause_spans_flush): read from the array at every span, a cache miss
   * among dozens of causes' arrays, it was the largest part of add_span's samples. */
  gint64  last[2];
  /* Merged as they come (Walk.stream_spans): no array, the union's intervals before last
   * (closed: each ends before the one after it starts, the earliest from closed_from on), their
   * length and the longest of them. */
  gint64  closed_from;
  gint64  union_ns;
  JvmsEvidenceInterval best[JVMS_EVIDENCE_MAX_INTERVALS];
  guint   n_best;
} CauseSpans;

/* Closes @c's last pair, merged as spans came (Walk.stream_spans): an interval of the union. */
static inline void
cause_spans_close (CauseSpans *c)
{
  c->union_ns += c->last[1] - c->last[0];
  c->closed_from = c->last[0];
  if (c->n_best < JVMS_EVIDENCE_MAX_INTERVALS
      || c->last[1] - c->last[0] >= c->best[JVMS_EVIDENCE_MAX_INTERVALS - 1].to - c->best[JVMS_EVIDENCE_MAX_INTERVALS - 1].from)
    jvms_evidence_longest_add (c->best, &c->n_best, (JvmsEvidenceInterval) { c->last[0], c->last[1] });
}

/* Writes @c's last pair into its array, which then holds all of its n pairs. */
static inline void
cause_spans_flush (CauseSpans *c)
{
  if (c->n > 0)
    {
      c->pairs[2 * (c->n - 1)] = c->last[0];
      c->pairs[2 * (c->n - 1) + 1] = c->last[1];
    }
}

static void
cause_spans_free (gpointer data)
{
  CauseSpans *c = data;
  g_free (c->pairs);
  g_free (c);
}

/* A cause's spans in Walk.spans, found by its tid's low bits (add_span). */
#define SPAN_SLOTS 256
typedef struct
{
  gint64      tid;
  CauseSpans *spans;
} SpanSlot;

typedef struct
{
  JvmsHistory      *history;
  JvmsThreadList   *list;
  GHashTable       *threads;  /* tid -> PathThread* */
  JvmsCriticalPath *path;
  GCancellable     *cancellable;
  GError           *error;
  GHashTable       *spans[N_CAUSES];  /* tid -> CauseSpans: where each cause was one */
  GArray           *cpus;             /* CpuWindow: each CPU seen, in the order seen */
  const char       *recent[16];       /* strings stored last (store_recent) */
  const char       *recent_src[16];   /* the string each was asked by */
  guint             next_recent;
  const char       *sys_src[8];       /* system calls' names met last (running_cause) */
  const char       *sys_cause[8];     /* their causes, "in NAME", stored */
  guint             next_sys;
  SpanSlot         *span_slots;       /* N_CAUSES x SPAN_SLOTS: causes' span arrays by tid */
  /* Causes' spans merged as they come, not kept (add_span): a walk back adds each cause's latest
   * first, so that the union's intervals close one after the other. A span that does not (one
   * after the last, or a merge that reaches the intervals closed) sets spans_out_of_order, and
   * the path is computed again keeping them (jvms_critical_path_compute). */
  gboolean          stream_spans;
  gboolean          spans_out_of_order;
  /* add_segment's last pairs of state and cause asked, and stored: a busy thread's segments
   * go round a few pairs (running in a system call, running, waiting for a CPU), so that one
   * last pair missed at every segment (store_recent twice a segment was 3 % of a long path). */
  const char       *pair_state_src[4], *pair_cause_src[4];
  const char       *pair_state[4], *pair_cause[4];
  guint             next_pair;
  /* The path's segments, latest first as the walk adds them: the path's array, grown ahead by
   * many at a time and written through (an append through GArray was 2.5 % of a long path);
   * cut to the n_segs written and reversed at the end. */
  JvmsPathSegment  *segs;
  guint             n_segs, cap_segs;
} Walk;

static void
path_thread_free (gpointer data)
{
  PathThread *t = data;
  for (guint i = 0; i < N_LEAVES; i++)
    g_clear_pointer (&t->ivs[i], g_array_unref);
  g_free (t);
}

static const char *
store (JvmsCriticalPath *p, const char *s)
{
  return s != NULL ? g_string_chunk_insert_const (p->strings, s) : NULL;
}

/* The thread, its identity and attributes found when first visited; its states are read by
 * thread_window. */
static PathThread *
thread_get (Walk *w, gint64 tid)
{
  PathThread *t = g_hash_table_lookup (w->threads, &tid);
  if (t != NULL || w->error != NULL)
    return t;
  t = g_new0 (PathThread, 1);
  t->tid = tid;
  for (guint i = 0; i < N_LEAVES; i++)
    t->ivs[i] = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
  g_hash_table_insert (w->threads, &t->tid, t);
  const JvmsThreadInfo *info = jvms_thread_list_lookup (w->list, tid);
  t->name = store (w->path, info != NULL ? info->name : "?");
  t->chunk = CHUNK_MIN;
  if (info == NULL)
    return t;
  w->path->n_threads++;
  JvmsAttribute leaves[N_LEAVES] = {
    info->kernel_state,
    info->kernel_state != JVMS_ATTRIBUTE_INVALID ? jvms_history_lookup_child (w->history, info->kernel_state, "waker") : JVMS_ATTRIBUTE_INVALID,
    info->kernel_state != JVMS_ATTRIBUTE_INVALID ? jvms_history_lookup_child (w->history, info->kernel_state, "device") : JVMS_ATTRIBUTE_INVALID,
    info->kernel_state != JVMS_ATTRIBUTE_INVALID ? jvms_history_lookup_child (w->history, info->kernel_state, "cpu") : JVMS_ATTRIBUTE_INVALID,
    info->kernel_syscall, info->user_state, info->user_detail, info->user_owner,
  };
  for (guint i = 0; i < N_LEAVES; i++)
    if (leaves[i] != JVMS_ATTRIBUTE_INVALID)
      {
        t->attrs[t->n_attrs] = leaves[i];
        t->slots[t->n_attrs++] = i;
      }
  return t;
}

/* One history query of @attrs over [lo, hi]: into @outs[i], the intervals of @attrs[i] that meet
 * it with a value, in time order (those without one left out as they are gathered). */
static void
read_window (Walk *w, gint64 lo, gint64 hi, const JvmsAttribute *attrs, guint n, GArray **outs)
{
  w->path->n_queries++;
  jvms_history_query_range_into_valued (w->history, lo, hi, attrs, n, outs, &w->error);
}

/* Makes @t's states cover [a, b]: every interval of its leaves that meets it (so also the one
 * holding at a, and a wait's waker and device, written from the wait's start to the next
 * wait's). Read again only when the window held does not cover it, then back to @reach when
 * that is earlier. A walk may replace the window
 * a frame of its caller walks @t in: every step of a walk looks its intervals up again
 * (state_at), and none is kept across a nested walk. */
static void
thread_window_read (Walk *w, PathThread *t, gint64 a, gint64 b, gint64 reach)
{
  a = MIN (a, reach);
  /* A read that goes on back from the window held reads twice as far next time; one elsewhere
   * (a nested walk asked the thread at another time) starts small again, or a thread asked in
   * turn by two frames would read its longest chunk at every step. */
  gboolean on_back = t->read && b >= t->lo - t->chunk && b <= t->hi;
  t->chunk = on_back ? MIN (t->chunk * 2, CHUNK_MAX) : CHUNK_MIN;
  for (guint i = 0; i < N_LEAVES; i++)
    g_array_set_size (t->ivs[i], 0);
  t->read = TRUE;
  t->lo = MAX (w->path->from, a);
  t->hi = b;
  if (t->n_attrs == 0)
    return;
  GArray *outs[N_LEAVES];
  for (guint i = 0; i < t->n_attrs; i++)
    outs[i] = t->ivs[t->slots[i]];
  read_window (w, t->lo, t->hi, t->attrs, t->n_attrs, outs);
}

/* thread_window_read where the window held does not cover [a, b]: mostly it does (a step of a
 * walk), and a call at every step only to see so was 2 % of a long path. */
static inline void
thread_window (Walk *w, PathThread *t, gint64 a, gint64 b, gint64 reach)
{
  if (G_LIKELY (w->error == NULL) && !(t->read && t->lo <= a && b <= t->hi))
    thread_window_read (w, t, a, b, reach);
}

/* The index of the first interval of @ivs (in time order) that ends after @t. @hint (or NULL)
 * is where the last search of @ivs ended: the walk goes back through a thread's intervals a
 * step at a time, so the answer is mostly there or just before it (a binary search over a
 * window's thousands at each step was a twentieth of a long path). */
static inline guint
first_ending_after (GArray *ivs, gint64 t, guint *hint)
{
  const JvmsInterval *v = (const JvmsInterval *) ivs->data;
  guint n = ivs->len, lo = 0, hi = n;
  if (hint != NULL && *hint <= n)
    {
      /* From the hint, by steps doubling towards the answer (the intervals' ends increase),
       * then a binary search between the last two steps: a few probes where the answer is
       * near, as it mostly is (a search of a CPU's intervals from where the last ended, the
       * walk having moved back by a few switches, was a binary search over thousands). */
      guint h = *hint;
      if (h == n || v[h].end > t)
        {
          if (h == 0 || v[h - 1].end <= t)
            return h;
          /* One back, the walk having gone back by an interval: the most common answer. */
          if (h == 1 || v[h - 2].end <= t)
            {
              *hint = h - 1;
              return h - 1;
            }
          hi = h - 1;  /* v[hi].end > t: the answer is at most hi */
          guint step = 1;
          while (step <= hi && v[hi - step].end > t)
            {
              hi -= step;
              step *= 2;
            }
          lo = step <= hi ? hi - step + 1 : 0;
        }
      else
        {
          lo = h + 1;  /* v[h].end <= t: the answer is after h */
          guint step = 1;
          while (lo + step - 1 < n && v[lo + step - 1].end <= t)
            {
              lo += step;
              step *= 2;
            }
          hi = MIN (n, lo + step - 1);
        }
    }
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (v[mid].end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (hint != NULL)
    *hint = lo;
  return lo;
}

/* The interval of @ivs holding @t, or NULL. */
static const JvmsInterval *
at (GArray *ivs, gint64 t, guint *hint)
{
  guint i = first_ending_after (ivs, t, hint);
  if (i < ivs->len && g_array_index (ivs, JvmsInterval, i).start <= t)
    return &g_array_index (ivs, JvmsInterval, i);
  return NULL;
}

/* The end of the last interval of @ivs that ends at or before @t, or G_MININT64. */
static gint64
end_before (GArray *ivs, gint64 t, guint *hint)
{
  guint i = first_ending_after (ivs, t, hint);
  return i > 0 ? g_array_index (ivs, JvmsInterval, i - 1).end : G_MININT64;
}

/* The interval of @t's @leaf holding at now - 1, for a walk over [a, now): its states read
 * around it first, back to where that interval (clipped to a) starts, so that what holds there
 * (a system call, JFR's detail, a wait's waker) is read too. NULL where none holds, with @gap
 * the end of the one before (a at most). Always inline, as add_segment: called at every step of
 * a walk (docs/benchmarks.md, the fifteenth run). */
G_ALWAYS_INLINE static inline const JvmsInterval *
state_at (Walk *w, PathThread *t, guint leaf, gint64 a, gint64 now, gint64 *gap)
{
  thread_window (w, t, now - 1, now, MAX (a, now - t->chunk));
  const JvmsInterval *iv = at (t->ivs[leaf], now - 1, &t->hint[leaf]);
  gint64 from = iv != NULL ? MAX (iv->start, a) : MAX (end_before (t->ivs[leaf], now - 1, &t->hint[leaf]), a);
  if (from < t->lo && iv != NULL)
    {
      /* A state that began before the window (a wait of seconds): what the walk reads of it
       * next holds where it starts (its system call, its waker; then the state before it), not
       * in between, so the window moves there rather than reaching back from now. Reading all
       * of [from, now) was a pass over every node of a long wait's time for each thread
       * blocked over it (docs/critical-path.md, "Speed"). The interval itself meets the new
       * window and is found again. */
      thread_window (w, t, from, from, MAX (a, from - t->chunk));
      iv = at (t->ivs[leaf], now - 1, &t->hint[leaf]);
    }
  else if (from < t->lo)
    {
      thread_window (w, t, a, now, MAX (a, now - t->chunk));
      iv = at (t->ivs[leaf], now - 1, &t->hint[leaf]);
    }
  *gap = iv != NULL ? now : MAX (end_before (t->ivs[leaf], now - 1, &t->hint[leaf]), a);
  return iv;
}

static const char *
string_at (GArray *ivs, gint64 t, guint *hint)
{
  const JvmsInterval *iv = at (ivs, t, hint);
  return iv != NULL && iv->value.type == JVMS_VALUE_STRING ? iv->value.s : NULL;
}

static gboolean
int_at (GArray *ivs, gint64 t, gint64 *out, guint *hint)
{
  const JvmsInterval *iv = at (ivs, t, hint);
  if (iv == NULL || iv->value.type != JVMS_VALUE_INT)
    return FALSE;
  *out = iv->value.i;
  return TRUE;
}

/* store() for a segment's state and cause: a path of a million segments has a handful of
 * them, and looking each up in the string chunk's hash table was a twentieth of its time. The
 * last ones asked are found by their address first, then by their text (the same text at
 * another address is the same string). @s must stay put while the walk runs (a literal, an
 * interned string, one of the history's or of the path's chunk), so that its address keeps
 * meaning its text: comparing each with the last stored strings was another 4 %. */
static const char *
store_recent (Walk *w, const char *s)
{
  if (s == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (w->recent); i++)
    if (w->recent_src[i] == s)
      return w->recent[i];
  const char *stored = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (w->recent) && stored == NULL; i++)
    if (w->recent[i] != NULL && strcmp (w->recent[i], s) == 0)
      stored = w->recent[i];
  if (stored == NULL)
    stored = store (w->path, s);
  w->recent[w->next_recent] = stored;
  w->recent_src[w->next_recent] = s;
  w->next_recent = (w->next_recent + 1) % G_N_ELEMENTS (w->recent);
  return stored;
}

/* The spans of @tid as a cause of @kind, made when first met, found by its slot since. */
G_GNUC_NO_INLINE static CauseSpans *
cause_spans_get (Walk *w, guint kind, gint64 tid, SpanSlot *slot)
{
  CauseSpans *c = g_hash_table_lookup (w->spans[kind], &tid);
  if (c == NULL)
    {
      c = g_new0 (CauseSpans, 1);
      c->tid = tid;
      g_hash_table_insert (w->spans[kind], &c->tid, c);
    }
  slot->tid = tid;
  slot->spans = c;
  return c;
}

/* add_span where the spans are kept (not merged as they come): a path computed again. */
G_GNUC_NO_INLINE static void
add_span_kept (CauseSpans *c, gint64 from, gint64 to)
{
  if (jvms_evidence_span_merge_last (c->n > 0 ? c->last : NULL, from, to))
    return;
  cause_spans_flush (c);
  /* Kept only where the path is computed again with its spans out of order (rare): grown in
   * the heap, not in arrays kept for the next path as before the spans were merged as they come
   * (the thirteenth run, docs/benchmarks.md). */
  if (c->n == c->cap)
    {
      c->cap = MAX (16u, c->cap * 2);
      c->pairs = g_renew (gint64, c->pairs, 2 * (gsize) c->cap);
    }
  c->last[0] = from;
  c->last[1] = to;
  c->n++;
}

/* [from, to) where @tid was a cause of @kind, merged into its last span when they meet, as
 * jvms_evidence_add_span does. A long path adds a span at each piece of a wait for a CPU, to one
 * of the CPUs' other runners (dozens of threads): their spans are kept in slots by tid, as
 * looking the tid up in a hash table at each span was a twentieth of such a path's
 * instructions, and in arrays of their own (a GArray's append was another twentieth).
 * Inline, its rare paths (a cause first met, spans kept) apart: a call of it all at each of a
 * long path's 1.6 M spans, saving and restoring the registers its slow paths need, was about a
 * third of its instructions (docs/benchmarks.md, the fifteenth run). */
static inline void
add_span (Walk *w, guint kind, gint64 tid, gint64 from, gint64 to)
{
  if (to <= from)
    return;
  SpanSlot *slot = &w->span_slots[kind * SPAN_SLOTS + ((guint64) tid % SPAN_SLOTS)];
  CauseSpans *c = G_LIKELY (slot->spans != NULL && slot->tid == tid) ? slot->spans
                                                                      : cause_spans_get (w, kind, tid, slot);
  if (G_UNLIKELY (!w->stream_spans))
    {
      add_span_kept (c, from, to);
      return;
    }
  /* Writing each span into its cause's array, one of dozens, was most of add_span's time
   * (cache misses; docs/benchmarks.md, the thirteenth run). */
  if (c->n == 0)
    c->closed_from = G_MAXINT64;
  else if (from <= c->last[1] && to >= c->last[0])
    {
      c->last[0] = MIN (c->last[0], from);
      c->last[1] = MAX (c->last[1], to);
      w->spans_out_of_order |= c->last[1] >= c->closed_from;
      return;
    }
  else if (from > c->last[1])
    {
      w->spans_out_of_order = TRUE;
      return;
    }
  else
    cause_spans_close (c);
  c->last[0] = from;
  c->last[1] = to;
  c->n++;
}

/* A path and the room its segment array holds (segments; the array's length is the path's). */
typedef struct
{
  JvmsCriticalPath path;
  guint            seg_cap;
} PathBox;

/* The segment array of the last long path freed, kept for the next one. A long path's array is
 * tens of megabytes: grown by doubling it was copied at each step and faulted in page by page,
 * fresh memory at every path (above malloc's largest mmap threshold, 32 MiB, it is mapped anew
 * each time), and that was a sixth of a long path's CPU (docs/benchmarks.md, the twelfth run).
 * One array, of at most MAX_SEGMENTS: at most 48 MiB kept while no path holds it, taken by a
 * path whose segments outgrow seg_keep_min (fewer come from the heap, whose freed blocks malloc
 * reuses anyway). */
static struct
{
  GArray *segments;
  guint   cap;
} seg_cache;
G_LOCK_DEFINE_STATIC (seg_cache);

/* The kept array if it has room for @want segments (its room in @cap, its length that), or NULL. */
static GArray *
segments_take (guint want, guint *cap)
{
  G_LOCK (seg_cache);
  GArray *a = seg_cache.segments;
  if (a != NULL && seg_cache.cap >= want)
    {
      *cap = seg_cache.cap;
      seg_cache.segments = NULL;
    }
  else
    a = NULL;
  G_UNLOCK (seg_cache);
  if (a != NULL)
    g_array_set_size (a, *cap);  /* within its room: no copy */
  return a;
}

/* Keeps @a (room for @cap segments) for the next path, the larger of it and the one kept. */
static void
segments_give (GArray *a, guint cap)
{
  if (cap >= seg_keep_min && cap <= MAX_SEGMENTS)
    {
      G_LOCK (seg_cache);
      if (seg_cache.segments == NULL || seg_cache.cap < cap)
        {
          GArray *old = seg_cache.segments;
          seg_cache.segments = a;
          seg_cache.cap = cap;
          a = old;
        }
      G_UNLOCK (seg_cache);
    }
  if (a != NULL)
    g_array_unref (a);
}

/* Room for more segments: twice as much, or the kept array where the path grows long. */
static void
segments_grow (Walk *w)
{
  guint cap = MAX (1024u, w->cap_segs * 2), kept_cap = 0;
  GArray *kept = cap >= seg_keep_min ? segments_take (cap, &kept_cap) : NULL;
  if (kept != NULL)
    {
      if (w->n_segs > 0)  /* w->segs is NULL before the first growth */
        memcpy (kept->data, w->segs, w->n_segs * sizeof (JvmsPathSegment));
      g_array_unref (w->path->segments);
      w->path->segments = kept;
      w->cap_segs = kept_cap;
    }
  else
    {
      w->cap_segs = cap;
      g_array_set_size (w->path->segments, w->cap_segs);
    }
  w->segs = (JvmsPathSegment *) w->path->segments->data;
}

/* Segments are added walking back: the latest first. Neighbours alike are merged. Always
 * inline: a call at each of a long path's million segments (six arguments, the registers
 * saved) was a fifth of its instructions (docs/benchmarks.md, the fifteenth run). */
G_ALWAYS_INLINE static inline void
add_segment (Walk *w, PathThread *t, const char *state, const char *cause, gint64 from, gint64 to)
{
  if (to <= from)
    return;
  /* Mostly one of the last few pairs of state and cause (a thread's running cut at each
   * system call): stored already (store_recent finds them by address, with no side effect). */
  guint p = 0;
  while (p < G_N_ELEMENTS (w->pair_state_src)
         && (state != w->pair_state_src[p] || cause != w->pair_cause_src[p]))
    p++;
  if (p == G_N_ELEMENTS (w->pair_state_src))
    {
      p = w->next_pair;
      w->next_pair = (w->next_pair + 1) % G_N_ELEMENTS (w->pair_state_src);
      w->pair_state_src[p] = state;
      w->pair_cause_src[p] = cause;
      w->pair_state[p] = store_recent (w, state);
      w->pair_cause[p] = store_recent (w, cause);
    }
  state = w->pair_state[p];
  cause = w->pair_cause[p];
  if (w->n_segs > 0)
    {
      JvmsPathSegment *last = &w->segs[w->n_segs - 1];
      if (last->tid == t->tid && last->from == to && last->state == state && last->cause == cause)
        {
          last->from = from;
          return;
        }
    }
  if (w->n_segs == w->cap_segs)
    segments_grow (w);
  w->segs[w->n_segs++] = (JvmsPathSegment) { t->tid, t->name, state, cause, from, to };
}

static void add_handoff (Walk *w, gint64 waker, gint64 woken, gint64 from, gint64 time);
static void walk_back (Walk *w, PathThread *t, gint64 a, gint64 b, guint depth);

/* Whom the path follows for a wait of @t over [a, b) that began at @wait_start: the kernel's
 * waker (a thread, not an interrupt; @kind CAUSE_WAKER), else a monitor's previous owner
 * (CAUSE_HOLDER). 0 when none. */
static gint64
follow_whom (PathThread *t, gint64 wait_start, gint64 a, const char **cause, guint *kind)
{
  *kind = CAUSE_WAKER;
  gint64 packed;
  if (int_at (t->ivs[WAKER], wait_start, &packed, &t->hint[WAKER]))
    {
      gint64 tid = jvms_waker_tid (packed);
      if (jvms_waker_in_irq (packed))
        {
          /* A device or a timer, not the thread the interrupt happened to stop. */
          const char *dev = string_at (t->ivs[DEVICE], wait_start, &t->hint[DEVICE]);
          char buf[64];
          g_snprintf (buf, sizeof buf, "disk %s", dev != NULL ? dev : "");
          *cause = dev != NULL ? g_intern_string (buf) : "interrupt";
          return 0;
        }
      if (tid == 0)
        {
          *cause = "timer or interrupt (idle CPU)";
          return 0;
        }
      if (tid != t->tid)
        return tid;
    }
  /* JFR's monitor link: the thread that released the monitor to this one. */
  gint64 user, owner;
  if (int_at (t->ivs[USER], a, &user, &t->hint[USER]) && user == JVMS_USER_STATE_BLOCKED
      && int_at (t->ivs[OWNER], a, &owner, &t->hint[OWNER]) && owner != 0 && owner != t->tid)
    {
      *kind = CAUSE_HOLDER;
      return owner;
    }
  *cause = "no wake-up recorded";
  return 0;
}

/* A wait of @t over [s, e) (within the wait [wait_start, wait_end)). */
static void
walk_wait (Walk *w, PathThread *t, const char *state, gint64 wait_start, gint64 wait_end, gint64 s,
           gint64 e, guint depth)
{
  const char *cause = NULL;
  guint kind;
  gint64 waker = follow_whom (t, wait_start, s, &cause, &kind);
  if (waker != 0 && depth >= MAX_DEPTH)
    {
      w->path->truncated = TRUE;
      cause = "not followed: the chain is too deep";
      waker = 0;
    }
  if (waker == 0)
    {
      /* What JFR says the thread waited in, when it says. */
      const char *detail = string_at (t->ivs[DETAIL], s, &t->hint[DETAIL]);
      const char *sys = string_at (t->ivs[SYSCALL], s, &t->hint[SYSCALL]);
      g_autofree char *full = detail != NULL ? g_strdup_printf ("%s; in %s", cause, detail)
                              : sys != NULL ? g_strdup_printf ("%s; in %s", cause, sys) : NULL;
      add_segment (w, t, state, full != NULL ? store (w->path, full) : cause, s, e);
      return;
    }
  PathThread *next = thread_get (w, waker);
  if (next == NULL)
    return;
  if (wait_end <= w->path->to && wait_end == e)
    add_handoff (w, waker, t->tid, s, wait_end);
  /* The waker is the cause over the part of the wait the path follows it over. */
  add_span (w, kind, waker, s, e);
  walk_back (w, next, s, e, depth + 1);
}

/* The CPU @t is on at @time (where a wait for a CPU ends): read once more, alone, when it lies
 * past the window read (a piece cut by the end of the part the thread was asked over). */
static gboolean
cpu_at (Walk *w, PathThread *t, gint64 time, gint64 *out)
{
  if (time <= t->hi)
    return int_at (t->ivs[CPU], time, out, &t->hint[CPU]);
  JvmsAttribute cpu = JVMS_ATTRIBUTE_INVALID;
  for (guint i = 0; i < t->n_attrs; i++)
    if (t->slots[i] == CPU)
      cpu = t->attrs[i];
  JvmsInterval iv;
  if (cpu == JVMS_ATTRIBUTE_INVALID || time > jvms_history_get_end_time (w->history))
    return FALSE;
  w->path->n_queries++;
  if (!jvms_history_query_single (w->history, cpu, time, &iv, &w->error) || iv.value.type != JVMS_VALUE_INT)
    return FALSE;
  *out = iv.value.i;
  return TRUE;
}

static const char *
running_cause (Walk *w, PathThread *t, gint64 s, gint64 kernel)
{
  if (kernel == JVMS_KERNEL_STATE_RUNNABLE)
    return "waiting for a CPU";
  const char *sys = string_at (t->ivs[SYSCALL], s, &t->hint[SYSCALL]);
  if (sys != NULL)
    {
      /* The history's strings stay put, one address a text: the cause of the last few found
       * by it (formatting and interning it at each segment was a twentieth of a long path). */
      for (guint i = 0; i < G_N_ELEMENTS (w->sys_src); i++)
        if (w->sys_src[i] == sys)
          return w->sys_cause[i];
      char buf[96];
      g_snprintf (buf, sizeof buf, "in %s", sys);
      w->sys_src[w->next_sys] = sys;
      w->sys_cause[w->next_sys] = store (w->path, buf);
      const char *stored = w->sys_cause[w->next_sys];
      w->next_sys = (w->next_sys + 1) % G_N_ELEMENTS (w->sys_src);
      return stored;
    }
  gint64 user;
  if (int_at (t->ivs[USER], s, &user, &t->hint[USER]) && user == JVMS_USER_STATE_SAFEPOINT)
    return "running at a safepoint";
  return "running";
}

/* The index of @cpu's window, added (not yet read) when first seen; -1 for a CPU the history has
 * no current thread of. */
static gint
cpu_slot (Walk *w, gint64 cpu)
{
  for (guint i = 0; i < w->cpus->len; i++)
    if (g_array_index (w->cpus, CpuWindow, i).cpu == cpu)
      return (gint) i;
  char path[64];
  g_snprintf (path, sizeof path, "CPUs/%" G_GINT64_FORMAT "/current-thread", cpu);
  JvmsAttribute current = jvms_history_lookup (w->history, path);
  if (current == JVMS_ATTRIBUTE_INVALID)
    return -1;
  CpuWindow c = { current, cpu, g_array_new (FALSE, FALSE, sizeof (JvmsInterval)), 0, FALSE, 0, 0, 0 };
  g_array_append_val (w->cpus, c);
  return (gint) w->cpus->len - 1;
}

/* Makes @c hold [a, b): read again when it does not, back to a chunk before b (the chunk
 * doubling as the walk goes on back, as thread_window's, from CPU_CHUNK_MIN to CPU_CHUNK_MAX). */
static void
cpu_window (Walk *w, CpuWindow *c, gint64 a, gint64 b)
{
  if (w->error != NULL || (c->read && c->lo <= a && b <= c->hi))
    return;
  gboolean on_back = c->read && b >= c->lo && b <= c->hi;
  c->chunk = on_back ? MIN (c->chunk * 2, CPU_CHUNK_MAX) : CPU_CHUNK_MIN;
  c->read = TRUE;
  c->lo = MAX (w->path->from, MIN (a, b - c->chunk));
  c->hi = b;
  g_array_set_size (c->ivs, 0);
  read_window (w, c->lo, c->hi, &c->attr, 1, &c->ivs);
}

/* @tid waited for the CPU @cpu over [from, to) (the one it was switched in on next): who ran on
 * it meanwhile, another thread than @tid (null and 0 are the idle CPU), is a preempter there. */
static void
add_preempters (Walk *w, gint64 cpu, gint64 tid, gint64 from, gint64 to)
{
  gint slot = cpu_slot (w, cpu);
  if (slot < 0)
    return;
  CpuWindow *c = &g_array_index (w->cpus, CpuWindow, slot);
  cpu_window (w, c, from, to);
  if (w->error != NULL)
    return;
  GArray *ivs = c->ivs;
  guint first = first_ending_after (ivs, from, &c->hint), last = first;
  while (last < ivs->len && g_array_index (ivs, JvmsInterval, last).start < to)
    last++;
  /* Latest first, as the walk goes: each preempter's spans then come in reverse time order,
   * which jvms_evidence_longest_intervals takes without sorting them. */
  for (guint i = last; i-- > first;)
    {
      const JvmsInterval *iv = &g_array_index (ivs, JvmsInterval, i);
      gint64 a = MAX (iv->start, from), b = MIN (iv->end, to);
      if (b > a && iv->value.type == JVMS_VALUE_INT && iv->value.i > 0 && iv->value.i != tid)
        add_span (w, CAUSE_PREEMPTER, iv->value.i, a, b);
    }
}

/* A path holds max_segments at most: once full, the rest of @t's part [a, now) is one segment
 * that says so (each thread's own walk checks, not only the start of a hand-off: one busy thread
 * over a long range is millions of segments by itself). */
static gboolean
segments_full (Walk *w, PathThread *t, gint64 a, gint64 now)
{
  if (w->n_segs < max_segments)
    return FALSE;
  w->path->truncated = TRUE;
  add_segment (w, t, "unknown", "not followed: too many segments", a, now);
  return TRUE;
}

/* Without a kernel layer: JFR's states, monitors followed to their previous owner. */
static void
walk_back_user (Walk *w, PathThread *t, gint64 a, gint64 b, guint depth)
{
  gint64 now = b;
  while (now > a)
    {
      if (segments_full (w, t, a, now))
        break;
      gint64 pe;
      const JvmsInterval *iv = state_at (w, t, USER, a, now, &pe);
      if (w->error != NULL)
        break;
      if (iv == NULL)
        {
          add_segment (w, t, "unknown", "no state recorded", pe, now);
          now = pe;
          continue;
        }
      gint64 s = MAX (iv->start, a);
      JvmsUserState u = (JvmsUserState) iv->value.i;
      const char *name = jvms_user_state_name (u);
      const char *detail = string_at (t->ivs[DETAIL], s, &t->hint[DETAIL]);
      if (u == JVMS_USER_STATE_BLOCKED)
        walk_wait (w, t, name != NULL ? name : "blocked", iv->start, iv->end, s, now, depth);
      else if (u == JVMS_USER_STATE_RUNNING || u == JVMS_USER_STATE_NATIVE)
        add_segment (w, t, name, "running (JFR: on a CPU or waiting for one)", s, now);
      else
        {
          g_autofree char *cause = u == JVMS_USER_STATE_PARKED
                                     ? g_strdup_printf ("parked%s%s (JFR records no unparker)",
                                                        detail ? " on " : "", detail ? detail : "")
                                     : g_strdup_printf ("%s%s%s", name ? name : "?", detail ? ": " : "",
                                                        detail ? detail : "");
          add_segment (w, t, name ? name : "unknown", store (w->path, cause), s, now);
        }
      now = s;
    }
}

/* The path over [a, b) from @t's view, added latest first. */
static void
walk_back (Walk *w, PathThread *t, gint64 a, gint64 b, guint depth)
{
  if (w->error != NULL)
    return;
  if (w->n_segs >= max_segments
      || (w->cancellable != NULL && g_cancellable_set_error_if_cancelled (w->cancellable, &w->error)))
    {
      w->path->truncated = TRUE;
      add_segment (w, t, "unknown", "not followed: too many segments", a, b);
      return;
    }
  gboolean kernel = FALSE;
  for (guint i = 0; i < t->n_attrs; i++)
    kernel |= t->slots[i] == KERNEL;
  if (!kernel)
    {
      walk_back_user (w, t, a, b, depth);
      return;
    }
  gint64 now = b;
  while (now > a && w->error == NULL)
    {
      if (segments_full (w, t, a, now))
        break;
      gint64 pe;
      const JvmsInterval *iv = state_at (w, t, KERNEL, a, now, &pe);
      if (w->error != NULL)
        break;
      if (iv == NULL)
        {
          /* No kernel state here (before the thread's first, or the kernel trace's): what JFR
           * says, if it says. */
          walk_back_user (w, t, pe, now, depth);
          now = pe;
          continue;
        }
      gint64 s = MAX (iv->start, a);
      gint64 k = iv->value.i;
      const char *name = jvms_kernel_state_name ((JvmsKernelState) k);
      if (name == NULL || k == JVMS_KERNEL_STATE_EXITED)
        add_segment (w, t, name ? name : "unknown", "exited", s, now);
      else if (k == JVMS_KERNEL_STATE_BLOCKED || k == JVMS_KERNEL_STATE_BLOCKED_IO
               || k == JVMS_KERNEL_STATE_UNKNOWN)
        {
          /* Copies: a nested walk may grow the tables the interval lives in. */
          gint64 ws = iv->start, we = iv->end;
          walk_wait (w, t, name, ws, we, s, now, depth);
        }
      else
        {
          add_segment (w, t, k == JVMS_KERNEL_STATE_RUNNABLE ? "runnable" : "running",
                       running_cause (w, t, s, k), s, now);
          /* Waiting for a CPU: the one it ran on next, where it was switched in (not known
           * when that lies beyond what was read: a thread still runnable at the range's end). */
          gint64 cpu;
          if (k == JVMS_KERNEL_STATE_RUNNABLE && cpu_at (w, t, iv->end, &cpu))
            add_preempters (w, cpu, t->tid, s, now);
        }
      now = s;
    }
}

static void
add_handoff (Walk *w, gint64 waker, gint64 woken, gint64 from, gint64 time)
{
  JvmsPathHandoff h = { waker, woken, time, from };
  g_array_append_val (w->path->handoffs, h);
}

static void
reverse (GArray *a, gsize size)
{
  guint8 tmp[64];
  g_assert (size <= sizeof tmp);
  for (guint i = 0, j = a->len; i + 1 < j; i++, j--)
    {
      memcpy (tmp, a->data + i * size, size);
      memcpy (a->data + i * size, a->data + (j - 1) * size, size);
      memcpy (a->data + (j - 1) * size, tmp, size);
    }
}

/* reverse for the segments, by their type: a long path's million segments swapped through
 * memcpy of a size known only at run time were about 1 % of its instructions. */
static void
reverse_segments (GArray *a)
{
  JvmsPathSegment *v = (JvmsPathSegment *) a->data;
  for (guint i = 0, j = a->len; i + 1 < j; i++, j--)
    {
      JvmsPathSegment tmp = v[i];
      v[i] = v[j - 1];
      v[j - 1] = tmp;
    }
}

static gint
compare_causes (gconstpointer a, gconstpointer b)
{
  const JvmsPathCause *x = a, *y = b;
  if (x->ns != y->ns)
    return x->ns > y->ns ? -1 : 1;
  int k = strcmp (x->kind, y->kind);
  if (k != 0)
    return k;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

static void
cause_clear (gpointer data)
{
  JvmsPathCause *c = data;
  g_clear_pointer (&c->intervals, g_array_unref);
}

/* The path's causes from the spans the walk kept. */
static void
build_causes (Walk *w)
{
  for (guint kind = 0; kind < N_CAUSES; kind++)
    {
      GHashTableIter it;
      gpointer value;
      g_hash_table_iter_init (&it, w->spans[kind]);
      while (g_hash_table_iter_next (&it, NULL, &value))
        {
          CauseSpans *spans = value;
          JvmsPathCause c = { cause_kinds[kind], spans->tid, NULL, -1, 0, NULL };
          const JvmsThreadInfo *info = jvms_thread_list_lookup (w->list, c.tid);
          g_autofree char *tkey = jvms_thread_key (c.tid);
          c.name = store (w->path, info != NULL ? info->name : tkey);
          c.pid = info != NULL ? info->pid : -1;
          if (w->stream_spans)
            {
              if (spans->n > 0)
                cause_spans_close (spans);
              c.ns = spans->union_ns;
              c.intervals = g_array_sized_new (FALSE, FALSE, sizeof (JvmsEvidenceInterval), spans->n_best);
              g_array_append_vals (c.intervals, spans->best, spans->n_best);
            }
          else
            {
              cause_spans_flush (spans);
              c.intervals = jvms_evidence_longest_intervals (spans->pairs, spans->n, &c.ns);
            }
          g_array_append_val (w->path->causes, c);
        }
    }
  g_array_sort (w->path->causes, compare_causes);
}

/* The thread list of the last history a path was asked of. Reading it (every thread's identity)
 * was a quarter of a path's CPU time in bench/causality, and a user asks path after path of one
 * trace. It is kept by what identifies a history's content without holding the history: its
 * file, start, end and number of attributes (a history being built grows in them). Shared by
 * the worker threads that compute paths: an atomic reference-counted box, so that a list being
 * read is freed only when the last path using it ends. */
typedef struct
{
  JvmsThreadList *list;
} ListBox;

static struct
{
  char    *path;
  gint64   start, end;
  guint    n_attributes;
  ListBox *box;
} list_cache;
G_LOCK_DEFINE_STATIC (list_cache);

static void
list_box_clear (gpointer data)
{
  jvms_thread_list_free (((ListBox *) data)->list);
}

/* A reference to the thread list of @history (release with g_atomic_rc_box_release_full and
 * list_box_clear). */
static ListBox *
list_get (JvmsHistory *history)
{
  const char *path = jvms_history_get_path (history);
  gint64 start = jvms_history_get_start_time (history), end = jvms_history_get_end_time (history);
  guint n = jvms_history_get_n_attributes (history);
  G_LOCK (list_cache);
  if (path != NULL && list_cache.box != NULL && g_strcmp0 (path, list_cache.path) == 0
      && list_cache.start == start && list_cache.end == end && list_cache.n_attributes == n)
    {
      ListBox *box = g_atomic_rc_box_acquire (list_cache.box);
      G_UNLOCK (list_cache);
      return box;
    }
  G_UNLOCK (list_cache);
  ListBox *box = g_atomic_rc_box_new0 (ListBox);
  box->list = jvms_thread_list_read (history);
  if (path == NULL)
    return box;
  G_LOCK (list_cache);
  if (list_cache.box != NULL)
    g_atomic_rc_box_release_full (list_cache.box, list_box_clear);
  g_free (list_cache.path);
  list_cache.path = g_strdup (path);
  list_cache.start = start;
  list_cache.end = end;
  list_cache.n_attributes = n;
  list_cache.box = g_atomic_rc_box_acquire (box);
  G_UNLOCK (list_cache);
  return box;
}

static void
list_release (ListBox *box)
{
  g_atomic_rc_box_release_full (box, list_box_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ListBox, list_release)

static JvmsCriticalPath *
compute (JvmsHistory *history, gint64 tid, gint64 from, gint64 to, GCancellable *cancellable,
         gboolean stream, gboolean *out_of_order, GError **error)
{
  g_return_val_if_fail (history != NULL, NULL);
  gint64 hs = jvms_history_get_start_time (history), he = jvms_history_get_end_time (history);
  g_autoptr(ListBox) box = list_get (history);
  JvmsThreadList *list = box->list;
  if (jvms_thread_list_lookup (list, tid) == NULL)
    {
      g_autofree char *key = jvms_thread_key (tid);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no such thread: %s", key);
      return NULL;
    }
  PathBox *pbox = g_new0 (PathBox, 1);
  JvmsCriticalPath *p = &pbox->path;
  p->strings = g_string_chunk_new (4096);
  p->segments = g_array_new (FALSE, FALSE, sizeof (JvmsPathSegment));
  p->handoffs = g_array_new (FALSE, FALSE, sizeof (JvmsPathHandoff));
  p->causes = g_array_new (FALSE, FALSE, sizeof (JvmsPathCause));
  g_array_set_clear_func (p->causes, cause_clear);
  p->tid = tid;
  p->from = CLAMP (from, hs, he);
  p->to = CLAMP (to, p->from, he);
  Walk w = {
    .history = history,
    .list = list,
    .threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, path_thread_free),
    .path = p,
    .cancellable = cancellable,
    .stream_spans = stream,
    .cpus = g_array_new (FALSE, FALSE, sizeof (CpuWindow)),
  };
  for (guint k = 0; k < N_CAUSES; k++)
    w.spans[k] = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, cause_spans_free);
  w.span_slots = g_new0 (SpanSlot, N_CAUSES * SPAN_SLOTS);
  PathThread *t = thread_get (&w, tid);
  p->name = t->name;
  walk_back (&w, t, p->from, p->to, 0);
  w.spans_out_of_order |= stream && force_out_of_order;
  *out_of_order = w.spans_out_of_order;
  if (w.error == NULL && !w.spans_out_of_order)
    build_causes (&w);
  g_hash_table_unref (w.threads);
  for (guint i = 0; i < w.cpus->len; i++)
    g_array_unref (g_array_index (w.cpus, CpuWindow, i).ivs);
  g_array_unref (w.cpus);
  for (guint k = 0; k < N_CAUSES; k++)
    g_hash_table_unref (w.spans[k]);
  g_free (w.span_slots);
  pbox->seg_cap = w.cap_segs;
  if (w.error != NULL)
    {
      g_propagate_error (error, w.error);
      jvms_critical_path_free (p);
      return NULL;
    }
  g_array_set_size (p->segments, w.n_segs);
  reverse_segments (p->segments);
  reverse (p->handoffs, sizeof (JvmsPathHandoff));
  return p;
}

JvmsCriticalPath *
jvms_critical_path_compute (JvmsHistory *history, gint64 tid, gint64 from, gint64 to,
                            GCancellable *cancellable, GError **error)
{
  gboolean out_of_order = FALSE;
  JvmsCriticalPath *p = compute (history, tid, from, to, cancellable, stream_spans, &out_of_order, error);
  if (p != NULL && out_of_order)
    {
      /* A cause's spans not in the order a walk back adds them: again, keeping them all. */
      jvms_critical_path_free (p);
      p = compute (history, tid, from, to, cancellable, FALSE, &out_of_order, error);
    }
  return p;
}

void
jvms_critical_path_free (JvmsCriticalPath *self)
{
  if (self == NULL)
    return;
  PathBox *box = (PathBox *) self;
  if (self->segments != NULL)
    segments_give (g_steal_pointer (&self->segments), box->seg_cap);
  g_clear_pointer (&self->handoffs, g_array_unref);
  g_clear_pointer (&self->causes, g_array_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_free (box);
}

/* ------------------------------------------------------------------------------------------ */

typedef struct
{
  JvmsHistory *history;
  gint64       tid, from, to;
} Request;

static void
request_free (gpointer data)
{
  Request *r = data;
  jvms_history_unref (r->history);
  g_free (r);
}

static void
compute_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Request *r = data;
  GError *error = NULL;
  JvmsCriticalPath *p = jvms_critical_path_compute (r->history, r->tid, r->from, r->to, cancellable, &error);
  if (p == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, p, (GDestroyNotify) jvms_critical_path_free);
}

void
jvms_critical_path_compute_async (JvmsHistory *history, gint64 tid, gint64 from, gint64 to,
                                  GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_critical_path_compute_async);
  Request *r = g_new0 (Request, 1);
  r->history = jvms_history_ref (history);
  r->tid = tid;
  r->from = from;
  r->to = to;
  g_task_set_task_data (task, r, request_free);
  g_task_run_in_thread (task, compute_in_thread);
}

JvmsCriticalPath *
jvms_critical_path_compute_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------------------------ */

static gint
compare_ns (gconstpointer a, gconstpointer b)
{
  const JvmsPathSegment *x = a, *y = b;
  gint64 dx = x->to - x->from, dy = y->to - y->from;
  if (dx != dy)
    return dx > dy ? -1 : 1;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

GArray *
jvms_critical_path_by_thread (const JvmsCriticalPath *self)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  for (guint i = 0; i < self->segments->len; i++)
    {
      const JvmsPathSegment *s = &g_array_index (self->segments, JvmsPathSegment, i);
      JvmsPathSegment *sum = g_hash_table_lookup (sums, &s->tid);
      if (sum == NULL)
        {
          sum = g_new0 (JvmsPathSegment, 1);
          sum->tid = s->tid;
          sum->name = s->name;
          g_hash_table_insert (sums, &sum->tid, sum);
        }
      sum->to += s->to - s->from;
    }
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JvmsPathSegment));
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init (&it, sums);
  while (g_hash_table_iter_next (&it, NULL, &v))
    g_array_append_vals (out, v, 1);
  g_array_sort (out, compare_ns);
  return out;
}

char *
jvms_critical_path_to_json (const JvmsCriticalPath *self, gint64 start)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  gint64 total = self->to - self->from;
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "thread");
  json_builder_begin_object (b);
  jvms_json_member_int (b, "tid", self->tid);
  jvms_json_member_text (b, "name", self->name);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "range");
  json_builder_begin_object (b);
  jvms_json_member_int (b, "from_ns", self->from);
  jvms_json_member_int (b, "to_ns", self->to);
  jvms_json_member_int (b, "from_offset_ns", self->from - start);
  jvms_json_member_int (b, "to_offset_ns", self->to - start);
  jvms_json_member_int (b, "duration_ns", total);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "segments");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->segments->len; i++)
    {
      const JvmsPathSegment *s = &g_array_index (self->segments, JvmsPathSegment, i);
      json_builder_begin_object (b);
      jvms_json_member_int (b, "tid", s->tid);
      jvms_json_member_text (b, "name", s->name);
      jvms_json_member_text (b, "state", s->state);
      jvms_json_member_text (b, "cause", s->cause);
      jvms_json_member_int (b, "from_ns", s->from);
      jvms_json_member_int (b, "to_ns", s->to);
      jvms_json_member_int (b, "from_offset_ns", s->from - start);
      jvms_json_member_int (b, "ns", s->to - s->from);
      jvms_json_member_double (b, "share", total > 0 ? (double) (s->to - s->from) / total : 0);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "by_thread");
  json_builder_begin_array (b);
  g_autoptr(GArray) by = jvms_critical_path_by_thread (self);
  for (guint i = 0; i < by->len; i++)
    {
      const JvmsPathSegment *s = &g_array_index (by, JvmsPathSegment, i);
      json_builder_begin_object (b);
      jvms_json_member_int (b, "tid", s->tid);
      jvms_json_member_text (b, "name", s->name);
      jvms_json_member_int (b, "ns", s->to);
      jvms_json_member_double (b, "share", total > 0 ? (double) s->to / total : 0);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "handoffs");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->handoffs->len; i++)
    {
      const JvmsPathHandoff *h = &g_array_index (self->handoffs, JvmsPathHandoff, i);
      json_builder_begin_object (b);
      jvms_json_member_int (b, "waker", h->waker);
      jvms_json_member_int (b, "woken", h->woken);
      jvms_json_member_int (b, "at_ns", h->at);
      jvms_json_member_int (b, "at_offset_ns", h->at - start);
      jvms_json_member_int (b, "from_ns", h->from);
      jvms_json_member_int (b, "from_offset_ns", h->from - start);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "causes");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->causes->len; i++)
    {
      const JvmsPathCause *c = &g_array_index (self->causes, JvmsPathCause, i);
      json_builder_begin_object (b);
      jvms_json_member_text (b, "kind", c->kind);
      jvms_json_member_int (b, "tid", c->tid);
      jvms_json_member_text (b, "name", c->name);
      json_builder_set_member_name (b, "pid");
      if (c->pid >= 0)
        json_builder_add_int_value (b, c->pid);
      else
        json_builder_add_null_value (b);
      jvms_json_member_int (b, "ns", c->ns);
      jvms_json_member_intervals (b, c->intervals);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  jvms_json_member_int (b, "threads", self->n_threads);
  json_builder_set_member_name (b, "truncated");
  json_builder_add_boolean_value (b, self->truncated);
  json_builder_end_object (b);
  g_autoptr(JsonNode) root = json_builder_get_root (b);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}
