/* jvms-history.h: the state history tree, Jvmscope's disk-backed index of time intervals.
 *
 * After Montplaisir et al., "State History Tree: an incremental disk-based data structure for
 * very large interval data" (2013). A history holds an attribute tree (paths such as
 * "Threads/4242/user-state" mapped to small integer ids) and, for every attribute, a sequence of
 * non-overlapping intervals [start, end) each carrying one value. It is built once, in a single
 * streaming pass, by a JvmsHistoryBuilder, and queried by time and attribute by a JvmsHistory.
 *
 * This library knows nothing about JVMs: attribute names and value meanings belong to the caller
 * (docs/attributes.md is Jvmscope's layout).
 *
 * Times are signed 64-bit nanoseconds on whatever axis the caller chooses. Intervals are
 * half-open: [start, end). A query at time t finds the interval with start <= t < end, or, for
 * t equal to the history's end time, the last interval.
 *
 * Threads: a JvmsHistory is safe to query from several threads at once; a builder is used from
 * one thread, and the JvmsHistory it exposes (jvms_history_builder_get_history) may be queried
 * from other threads while it appends: queries see every interval already ended. (An interval
 * still going is reported with its start and value, ending at the current end time.)
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_HISTORY_ERROR (jvms_history_error_quark ())
GQuark jvms_history_error_quark (void);

typedef enum
{
  JVMS_HISTORY_ERROR_IO,          /* the file system refused: message has errno text */
  JVMS_HISTORY_ERROR_NOT_HISTORY, /* bad magic: not an index file */
  JVMS_HISTORY_ERROR_VERSION,     /* an index of another format version */
  JVMS_HISTORY_ERROR_TRUNCATED,   /* shorter than its header says */
  JVMS_HISTORY_ERROR_CHECKSUM,    /* a node, the header or a table fails its checksum */
  JVMS_HISTORY_ERROR_CORRUPT,     /* checksums pass but a structure is inconsistent */
  JVMS_HISTORY_ERROR_TIME_ORDER,  /* modify() with a time before the attribute's current start */
  JVMS_HISTORY_ERROR_INVALID,     /* a bad argument: unknown attribute, closed builder ... */
  JVMS_HISTORY_ERROR_CANCELLED,
} JvmsHistoryError;

/* Attribute ids are dense, from 0 in creation order. */
typedef guint32 JvmsAttribute;
#define JVMS_ATTRIBUTE_INVALID ((JvmsAttribute) 0xFFFFFFFFu)
/* The unnamed root of the attribute tree: the parent of top-level attributes. */
#define JVMS_ATTRIBUTE_ROOT    ((JvmsAttribute) 0xFFFFFFFEu)

typedef enum
{
  JVMS_VALUE_NULL = 0,
  JVMS_VALUE_INT,
  JVMS_VALUE_DOUBLE,
  JVMS_VALUE_STRING,
} JvmsValueType;

/* A value. Strings returned by queries point into the history's string table and live as long
 * as the JvmsHistory; strings passed to the builder are copied (interned once per file). */
typedef struct
{
  JvmsValueType type;
  union
  {
    gint64      i;
    double      d;
    const char *s;
  };
} JvmsValue;

#define JVMS_VALUE_INIT_NULL      ((JvmsValue) { .type = JVMS_VALUE_NULL })
#define JVMS_VALUE_INIT_INT(v)    ((JvmsValue) { .type = JVMS_VALUE_INT, .i = (v) })
#define JVMS_VALUE_INIT_DOUBLE(v) ((JvmsValue) { .type = JVMS_VALUE_DOUBLE, .d = (v) })
#define JVMS_VALUE_INIT_STRING(v) ((JvmsValue) { .type = JVMS_VALUE_STRING, .s = (v) })

gboolean jvms_value_equal (const JvmsValue *a,
                           const JvmsValue *b);

typedef struct
{
  JvmsAttribute attribute;
  gint64        start; /* inclusive */
  gint64        end;   /* exclusive */
  JvmsValue     value;
} JvmsInterval;

typedef struct _JvmsHistory        JvmsHistory;
typedef struct _JvmsHistoryBuilder JvmsHistoryBuilder;
typedef struct _JvmsHistoryRange   JvmsHistoryRange;

/* ---------------------------------------------------------------------------------------------
 * Building
 */

typedef struct
{
  /* Node size in bytes before compression; 0 picks the default (64 KiB). Leaves keep to it;
   * inner nodes may grow to 64 bytes per attribute when that is larger (see
   * jvms-history-builder.c). */
  guint32 node_size;
  /* Budget of the node cache of the JvmsHistory the builder exposes; 0 picks 64 MiB. */
  gsize   cache_budget;
} JvmsHistoryBuilderOptions;

/* Starts a history that will be written to @path. The file is written under a temporary name
 * beside @path and renamed to @path only by a successful jvms_history_builder_close(), so a
 * crash never leaves a file at @path that could be taken for complete. @start_time is the
 * start of the history: the first interval of every attribute begins there with a null value. */
JvmsHistoryBuilder *jvms_history_builder_new            (const char                      *path,
                                                         gint64                           start_time,
                                                         const JvmsHistoryBuilderOptions *options,
                                                         GError                         **error);

/* Looks up @path ("A/B/C"), creating it and its missing ancestors. Never fails for a
 * non-empty path of non-empty components. */
JvmsAttribute       jvms_history_builder_attribute      (JvmsHistoryBuilder              *self,
                                                         const char                      *path);
/* Looks up the child @name of @parent (JVMS_ATTRIBUTE_ROOT for top level), creating it. */
JvmsAttribute       jvms_history_builder_attribute_child (JvmsHistoryBuilder             *self,
                                                         JvmsAttribute                    parent,
                                                         const char                      *name);

/* Ends @attribute's current interval at @time and starts a new one with @value. A @time before
 * the current interval's start is JVMS_HISTORY_ERROR_TIME_ORDER, naming the attribute and both
 * times; nothing is written. A @time equal to the current start replaces the current value
 * (no zero-length interval is stored). Setting the value the attribute already has does
 * nothing. */
gboolean            jvms_history_builder_modify         (JvmsHistoryBuilder              *self,
                                                         JvmsAttribute                    attribute,
                                                         gint64                           time,
                                                         const JvmsValue                 *value,
                                                         GError                         **error);
gboolean            jvms_history_builder_modify_int     (JvmsHistoryBuilder              *self,
                                                         JvmsAttribute                    attribute,
                                                         gint64                           time,
                                                         gint64                           value,
                                                         GError                         **error);
gboolean            jvms_history_builder_modify_double  (JvmsHistoryBuilder              *self,
                                                         JvmsAttribute                    attribute,
                                                         gint64                           time,
                                                         double                           value,
                                                         GError                         **error);
gboolean            jvms_history_builder_modify_string  (JvmsHistoryBuilder              *self,
                                                         JvmsAttribute                    attribute,
                                                         gint64                           time,
                                                         const char                      *value,
                                                         GError                         **error);
gboolean            jvms_history_builder_modify_null    (JvmsHistoryBuilder              *self,
                                                         JvmsAttribute                    attribute,
                                                         gint64                           time,
                                                         GError                         **error);

/* Free-form key/value metadata stored with the history (caller's meaning). */
void                jvms_history_builder_set_metadata   (JvmsHistoryBuilder              *self,
                                                         const char                      *key,
                                                         const char                      *value);

/* Ends every attribute's current interval at @end_time, writes what is left, and renames the
 * file into place. Afterwards the builder accepts no more changes; its history stays valid. */
gboolean            jvms_history_builder_close          (JvmsHistoryBuilder              *self,
                                                         gint64                           end_time,
                                                         GError                         **error);

/* The history as written so far, for queries from other threads while building goes on.
 * Returns a new reference. Its end time grows as the builder appends. */
JvmsHistory        *jvms_history_builder_get_history    (JvmsHistoryBuilder              *self);

/* Frees the builder; if it was not closed, deletes the temporary file. */
void                jvms_history_builder_free           (JvmsHistoryBuilder              *self);

/* ---------------------------------------------------------------------------------------------
 * Opening and inspecting
 */

/* Opens a complete history file. Truncation, another format version, a failed checksum or an
 * inconsistent structure is a JVMS_HISTORY_ERROR naming the file and what is wrong, so that the
 * caller can rebuild. @cache_budget: bytes of decompressed nodes kept (0: 64 MiB). */
JvmsHistory        *jvms_history_open                   (const char                      *path,
                                                         gsize                            cache_budget,
                                                         GError                         **error);
JvmsHistory        *jvms_history_ref                    (JvmsHistory                     *self);
void                jvms_history_unref                  (JvmsHistory                     *self);
/* Changes the node cache's budget of an open history (0: 64 MiB), evicting at once when it
 * shrinks; shared by every holder of the history, the builder's included. */
void                jvms_history_set_cache_budget       (JvmsHistory                     *self,
                                                         gsize                            cache_budget);

const char         *jvms_history_get_path               (JvmsHistory                     *self);
gint64              jvms_history_get_start_time         (JvmsHistory                     *self);
/* The end of what can be queried: the close time once complete, else the latest time any
 * interval was ended at. */
gint64              jvms_history_get_end_time           (JvmsHistory                     *self);
gboolean            jvms_history_is_complete            (JvmsHistory                     *self);
guint64             jvms_history_get_n_intervals        (JvmsHistory                     *self);
guint               jvms_history_get_n_attributes       (JvmsHistory                     *self);
/* Returns NULL when the key is absent. While building, the string stays valid until the key
 * is set again. */
const char         *jvms_history_get_metadata           (JvmsHistory                     *self,
                                                         const char                      *key);
/* Lays @value over the metadata @key of this opened history, in memory only (the file is not
 * written): every later jvms_history_get_metadata of @key on it, from any thread, returns
 * @value; NULL takes the overlay away. How a caller applies a choice the file does not hold to
 * every reader of the history (the window's choice of JVM in a trace of several). Strings
 * returned before stay valid. */
void                jvms_history_set_metadata_overlay   (JvmsHistory                     *self,
                                                         const char                      *key,
                                                         const char                      *value);

/* Reads and checks every node and summary blob of a complete history (a query reads only the
 * nodes it needs, so damage elsewhere goes unnoticed until then): what jvmscope-history-stat
 * and a caller that wants to know before use call. Added with the engine (not in the first
 * contract). */
gboolean            jvms_history_check                  (JvmsHistory                     *self,
                                                         GError                         **error);

/* Attribute tree. Lookups return JVMS_ATTRIBUTE_INVALID when absent. */
JvmsAttribute       jvms_history_lookup                 (JvmsHistory                     *self,
                                                         const char                      *path);
JvmsAttribute       jvms_history_lookup_child           (JvmsHistory                     *self,
                                                         JvmsAttribute                    parent,
                                                         const char                      *name);
JvmsAttribute       jvms_history_get_parent             (JvmsHistory                     *self,
                                                         JvmsAttribute                    attribute);
/* The last path component; lives as long as the history. */
const char         *jvms_history_get_name               (JvmsHistory                     *self,
                                                         JvmsAttribute                    attribute);
/* The full path, "A/B/C"; free with g_free(). */
char               *jvms_history_get_path_of            (JvmsHistory                     *self,
                                                         JvmsAttribute                    attribute);
/* Children of @parent (JVMS_ATTRIBUTE_ROOT for top level) in creation order: a new GArray of
 * JvmsAttribute. */
GArray             *jvms_history_list_children          (JvmsHistory                     *self,
                                                         JvmsAttribute                    parent);

/* ---------------------------------------------------------------------------------------------
 * Queries. Each may fail with a JVMS_HISTORY_ERROR when a node it reads is damaged.
 */

/* The interval of @attribute holding at @time. FALSE with JVMS_HISTORY_ERROR_INVALID when
 * @time is outside [start, end] of the history or the attribute is unknown. */
gboolean            jvms_history_query_single           (JvmsHistory                     *self,
                                                         JvmsAttribute                    attribute,
                                                         gint64                           time,
                                                         JvmsInterval                    *out,
                                                         GError                         **error);

/* Every attribute's interval at @time: fills @out (a GArray of JvmsInterval, cleared first)
 * indexed by attribute id, so g_array_index (out, JvmsInterval, a) is attribute a's. */
gboolean            jvms_history_query_full             (JvmsHistory                     *self,
                                                         gint64                           time,
                                                         GArray                          *out,
                                                         GError                         **error);

/* Every interval of the given attributes that intersects [@t0, @t1], ordered by the order of
 * @attributes, then by start time. */
JvmsHistoryRange   *jvms_history_query_range            (JvmsHistory                     *self,
                                                         gint64                           t0,
                                                         gint64                           t1,
                                                         const JvmsAttribute             *attributes,
                                                         guint                            n_attributes,
                                                         GError                         **error);
/* The same intervals, each attribute's appended to @outs[i] (a GArray of JvmsInterval) in time
 * order, for a caller that keeps them apart: no copy through a range. An attribute asked twice
 * fills both arrays. FALSE with @error as jvms_history_query_range. */
gboolean            jvms_history_query_range_into       (JvmsHistory                     *self,
                                                         gint64                           t0,
                                                         gint64                           t1,
                                                         const JvmsAttribute             *attributes,
                                                         guint                            n_attributes,
                                                         GArray                         **outs,
                                                         GError                         **error);
/* The same, leaving out the intervals without a value (null) or a length, as they are gathered
 * (the critical path's windows: a pass over them after was a tenth of its reads). */
gboolean            jvms_history_query_range_into_valued (JvmsHistory                    *self,
                                                          gint64                          t0,
                                                          gint64                          t1,
                                                          const JvmsAttribute            *attributes,
                                                          guint                           n_attributes,
                                                          GArray                        **outs,
                                                          GError                        **error);
/* Returns FALSE at the end (error unset) or on damage (error set). */
gboolean            jvms_history_range_next             (JvmsHistoryRange                *range,
                                                         JvmsInterval                    *out,
                                                         GError                         **error);
void                jvms_history_range_free             (JvmsHistoryRange                *range);

/* One column of one attribute in a summary query. */
typedef enum
{
  JVMS_SUMMARY_EMPTY = 1 << 0, /* the column lies outside what has been indexed */
  JVMS_SUMMARY_MIXED = 1 << 1, /* exactly: some value other than @dominant held in the column */
  /* min and max are an outer bound, not exact (only with JVMS_SUMMARY_QUERY_RANGE_BOUND) */
  JVMS_SUMMARY_RANGE_BOUND = 1 << 2,
} JvmsSummaryFlags;

typedef struct
{
  /* The value that held longest in the column. Exactly so while the history is being built and
   * for columns narrower than the attribute's finest summary level (rows read from its change
   * list), when the column holds at most 4 distinct values other than the integers 0 to 14 and
   * null. Zoomed out further, a row is read from the coarsest level whose buckets (2^(10 + k) ns)
   * fit in a column: each bucket counts whole for the value that held longest in it, and a
   * bucket cut by a column edge for a value that held in its part. So it is exact for columns
   * one bucket wide and aligned on the buckets (a bucket holding at most 4 values), and an
   * approximation otherwise. Ties go to the smallest of the integers 0 to 14 among the tied
   * values, else to null, else to the tied value the row met first. */
  JvmsValue        dominant;
  JvmsSummaryFlags flags;
  /* Over every numeric (int or double) value that held in the column; NaN when none did.
   * Exact, so that a line chart of a counter never misses a peak. */
  double           min;
  double           max;
} JvmsSummaryCell;

/* For drawing: splits [@t0, @t1) into @n_columns equal columns and fills
 * @cells[a * n_columns + c] for attribute index a (in @attributes) and column c. On a complete
 * history the cost does not grow with the number of intervals in the window: it reads
 * per-attribute summary levels (coarser and coarser buckets) and, for columns finer than an
 * attribute's finest level, its change list, both built while indexing; while the history is
 * still being built it reads the intervals. A value that held for any time inside a column,
 * however short, marks it MIXED (or is its dominant value). */
gboolean            jvms_history_query_summary          (JvmsHistory                     *self,
                                                         gint64                           t0,
                                                         gint64                           t1,
                                                         const JvmsAttribute             *attributes,
                                                         guint                            n_attributes,
                                                         guint                            n_columns,
                                                         JvmsSummaryCell                 *cells,
                                                         GError                         **error);

typedef enum
{
  JVMS_SUMMARY_QUERY_DEFAULT  = 0,
  /* min and max are left NaN: for rows drawn by their values alone (state lanes). A column
   * boundary that cuts a bucket leaves the min/max of each piece unknown, and only reading the
   * change list there tells it: skipping that makes a busy row several times cheaper. */
  JVMS_SUMMARY_QUERY_NO_RANGE = 1 << 0,
  /* For a frame drawn at once and refined after: where a column boundary cuts a level bucket
   * whose extremes could widen the column's, min and max take that bucket's extremes instead of
   * reading the change list, and the cell carries JVMS_SUMMARY_RANGE_BOUND. Such a cell's range
   * contains the exact one (no peak is missed) and lies within the extremes of the buckets the
   * column touches: a peak drawn at most one bucket, narrower than the column, beyond its edge.
   * Cells without the flag are exact; the same query without this flag gives every cell
   * exactly (about as costly as the change list over the window, for a busy numeric row). */
  JVMS_SUMMARY_QUERY_RANGE_BOUND = 1 << 1,
  /* The maximum alone, for rows drawn from it only (bars): every cell's dominant is null, MIXED
   * unset and min NaN (EMPTY and RANGE_BOUND as usual); max is the full query's. A row read from
   * the change list then only compares values, and a cut piece is read only where its bucket's
   * maximum could raise its column's. NO_RANGE, if also given, wins. */
  JVMS_SUMMARY_QUERY_MAX_ONLY = 1 << 2,
} JvmsSummaryQueryFlags;

/* jvms_history_query_summary with @flags. */
gboolean            jvms_history_query_summary_full     (JvmsHistory                     *self,
                                                         gint64                           t0,
                                                         gint64                           t1,
                                                         const JvmsAttribute             *attributes,
                                                         guint                            n_attributes,
                                                         guint                            n_columns,
                                                         JvmsSummaryQueryFlags            flags,
                                                         JvmsSummaryCell                 *cells,
                                                         GError                         **error);

/* jvms_history_query_summary with flags per row (@row_flags[i] for @attributes[i]): a view whose
 * lanes want different answers asks once, and its rows share the cores in one go. */
gboolean            jvms_history_query_summary_rows     (JvmsHistory                     *self,
                                                         gint64                           t0,
                                                         gint64                           t1,
                                                         const JvmsAttribute             *attributes,
                                                         const JvmsSummaryQueryFlags     *row_flags,
                                                         guint                            n_attributes,
                                                         guint                            n_columns,
                                                         JvmsSummaryCell                 *cells,
                                                         GError                         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsHistory, jvms_history_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsHistoryBuilder, jvms_history_builder_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsHistoryRange, jvms_history_range_free)

G_END_DECLS
