/* jvms-samples.h: the sample store kept beside an index (docs/profile.md; the layout is
 * jvms-samples-format.h).
 *
 * Every JFR event that carries a stack trace is kept as a sample: execution and native method
 * samples, allocation samples, monitor, park, sleep and I/O events, thrown errors, and any other
 * event type with a stackTrace field, with its frames and stacks stored once each (a stack
 * table). Samples are written in time order by the indexer, cut into blocks, and summed per
 * (type, thread, stack) over runs of blocks at several levels so that jvms-profile.h answers any
 * range at the same cost.
 *
 * Three doors:
 *   JvmsSamplesWriter  the indexer's, write-once;
 *   JvmsSamplesStore   an opened, checked store: tables, blocks and nodes (immutable, reference
 *                      counted, readable from any thread);
 *   JvmsSamplesReader  every sample in time order in the older per-sample form (JvmsSample), for
 *                      the report, the range statistics and the object-age view.
 */
#pragma once

#include <glib.h>

#include "jvms-samples-format.h"

G_BEGIN_DECLS

/* The older per-sample form. */
#define JVMS_SAMPLES_MAX_FRAMES 64

typedef enum
{
  JVMS_SAMPLE_EXECUTION  = 'E',   /* jdk.ExecutionSample */
  JVMS_SAMPLE_NATIVE     = 'N',   /* jdk.NativeMethodSample */
  JVMS_SAMPLE_ALLOCATION = 'A',   /* jdk.ObjectAllocationSample */
  JVMS_SAMPLE_OLD_OBJECT = 'O',   /* jdk.OldObjectSample */
  JVMS_SAMPLE_OTHER      = 'X',   /* any other event with a stack trace (type_name says which) */
} JvmsSampleKind;

typedef struct
{
  const char *method; /* "package.Class.method" */
  gint32      line;   /* -1 when unknown */
} JvmsSampleFrame;

typedef struct
{
  JvmsSampleKind         kind;
  gint64                 time;
  gint64                 tid;
  const char            *state;           /* E, N: the thread state, or NULL */
  const char            *class_name;      /* A, O: the object's class; others: the detail */
  guint64                weight;          /* A: bytes; others as docs/profile.md says */
  gint64                 allocation_time; /* O */
  guint64                object_age;      /* O: ns */
  guint                  n_frames;
  const JvmsSampleFrame *frames;          /* top first, at most JVMS_SAMPLES_MAX_FRAMES */
  /* Writer only: the frames' method strings are interned (same address, same bytes, for as
   * long as the writer lives), so their addresses may stand for them. */
  gboolean               frames_interned;
  /* Reader only. */
  const char            *type_name;       /* "jdk.ExecutionSample" */
  JvmsCpuState           cpu_state;
} JvmsSample;

/* ------------------------------------------------------------------------------------------ */
/* Writing */

typedef struct _JvmsSamplesWriter JvmsSamplesWriter;

typedef struct
{
  gint64       time;             /* epoch ns; non-decreasing (an earlier one is moved up) */
  guint32      type;             /* from jvms_samples_writer_intern_type() */
  guint32      thread;           /* from jvms_samples_writer_intern_thread() */
  guint32      stack;            /* from jvms_samples_writer_intern_stack(), or NONE */
  guint64      weight;
  JvmsCpuState state;            /* CPU types only */
  guint32      detail;           /* string id (thread state, object class), or NONE */
  gboolean     old_object;       /* allocation_time and object_age are set */
  gint64       allocation_time;
  guint64      object_age;
} JvmsSampleRecord;

JvmsSamplesWriter *jvms_samples_writer_new              (const char              *path,
                                                         GError                 **error);
/* The trace has a kernel layer: CPU samples' states mean something. */
void               jvms_samples_writer_set_kernel_states (JvmsSamplesWriter      *self,
                                                          gboolean                 kernel_states);
/* Interning: the same arguments give the same id for the writer's life. NULL gives NONE. */
guint32            jvms_samples_writer_intern_string    (JvmsSamplesWriter       *self,
                                                         const char              *s);
/* @class_name NULL for a pseudo-frame ("[truncated]", "[unknown]"). */
guint32            jvms_samples_writer_intern_method    (JvmsSamplesWriter       *self,
                                                         const char              *class_name,
                                                         const char              *name);
guint32            jvms_samples_writer_intern_frame     (JvmsSamplesWriter       *self,
                                                         guint32                  method,
                                                         gint32                   line,
                                                         JvmsFrameKind            kind);
/* The frame "[truncated]" (the root of a stack JFR marks truncated), or "[unknown]" for any
 * other @name (a method the chunk does not define). */
guint32            jvms_samples_writer_intern_pseudo_frame (JvmsSamplesWriter *self,
                                                            const char        *name);
/* @parent NONE for a root frame; otherwise an id this writer returned. */
guint32            jvms_samples_writer_intern_stack     (JvmsSamplesWriter       *self,
                                                         guint32                  parent,
                                                         guint32                  frame);
/* The stack of @n frame ids (from jvms_samples_writer_intern_frame() or _pseudo_frame()),
 * outermost first; NONE when @n is 0. A stack interned before is found by one lookup and a walk
 * up its parents, not a lookup a frame. */
guint32            jvms_samples_writer_intern_frame_ids (JvmsSamplesWriter       *self,
                                                         const guint32           *frames,
                                                         guint                    n);
/* The first non-NULL name given for @tid is kept. */
guint32            jvms_samples_writer_intern_thread    (JvmsSamplesWriter       *self,
                                                         gint64                   tid,
                                                         const char              *name);
/* One type per @name, and one more for its wall-clock samples (JVMS_SAMPLE_TYPE_WALL in @flags):
 * the first unit and flags given for each are kept. */
guint32            jvms_samples_writer_intern_type      (JvmsSamplesWriter       *self,
                                                         const char              *name,
                                                         JvmsSampleUnit           unit,
                                                         JvmsSampleTypeFlags      flags);
/* The stack of @n_frames frames, top first, each (class, method, line, kind); @truncated puts
 * the "[truncated]" frame at its root. A frame without a class or method name becomes
 * "[unknown]", and so does an empty stack. */
typedef struct
{
  const char    *class_name;
  const char    *method_name;
  gint32         line;
  JvmsFrameKind  kind;
} JvmsStackFrameIn;
guint32            jvms_samples_writer_intern_frames    (JvmsSamplesWriter       *self,
                                                         const JvmsStackFrameIn  *frames,
                                                         guint                    n_frames,
                                                         gboolean                 truncated);

/* Buffered; errors surface at close. */
void               jvms_samples_writer_add_record       (JvmsSamplesWriter       *self,
                                                         const JvmsSampleRecord  *record);
void               jvms_samples_writer_add_compilation  (JvmsSamplesWriter       *self,
                                                         const JvmsSamplesCompilation *compilation);
void               jvms_samples_writer_add_timing       (JvmsSamplesWriter       *self,
                                                         const JvmsSamplesTiming *timing);
/* The older form: kind E/N/A/O become their JDK event types, frames "package.Class.method"
 * are split at their last dot. */
void               jvms_samples_writer_add              (JvmsSamplesWriter       *self,
                                                         const JvmsSample        *sample);
guint64            jvms_samples_writer_count            (JvmsSamplesWriter       *self);
gboolean           jvms_samples_writer_close            (JvmsSamplesWriter       *self,
                                                         GError                 **error);
/* Frees; if not closed, deletes the file. */
void               jvms_samples_writer_free             (JvmsSamplesWriter       *self);

/* ------------------------------------------------------------------------------------------ */
/* An opened store */

typedef struct _JvmsSamplesStore JvmsSamplesStore;

/* Maps @path and checks everything but the blocks' and nodes' contents (checked when read).
 * JVMS_ANALYSIS_ERROR_INDEX naming the file, offset and structure when anything is wrong. */
JvmsSamplesStore  *jvms_samples_store_open       (const char        *path,
                                                  GError           **error);
/* The same on bytes in memory (the fuzzer); @name is used in messages. */
JvmsSamplesStore  *jvms_samples_store_open_bytes (GBytes            *bytes,
                                                  const char        *name,
                                                  GError           **error);
JvmsSamplesStore  *jvms_samples_store_ref        (JvmsSamplesStore  *self);
void               jvms_samples_store_unref      (JvmsSamplesStore  *self);

const char        *jvms_samples_store_get_path        (JvmsSamplesStore *self);
gboolean           jvms_samples_store_has_kernel_states (JvmsSamplesStore *self);
gint64             jvms_samples_store_get_first_time  (JvmsSamplesStore *self);
gint64             jvms_samples_store_get_last_time   (JvmsSamplesStore *self);
guint64            jvms_samples_store_get_n_samples   (JvmsSamplesStore *self);
guint64            jvms_samples_store_get_size        (JvmsSamplesStore *self);

/* Tables: ids are checked against these counts by the store; callers pass ids it gave them. */
guint              jvms_samples_store_get_n_strings   (JvmsSamplesStore *self);
const char        *jvms_samples_store_get_string      (JvmsSamplesStore *self, guint32 id); /* NULL for NONE */
guint              jvms_samples_store_get_n_methods   (JvmsSamplesStore *self);
/* "package.Class.method", or the pseudo-frame's name. */
const char        *jvms_samples_store_get_method_name (JvmsSamplesStore *self, guint32 method);
guint              jvms_samples_store_get_n_frames    (JvmsSamplesStore *self);
void               jvms_samples_store_get_frame       (JvmsSamplesStore *self, guint32 frame,
                                                       guint32 *method, gint32 *line,
                                                       JvmsFrameKind *kind);
guint              jvms_samples_store_get_n_stacks    (JvmsSamplesStore *self);
void               jvms_samples_store_get_stack       (JvmsSamplesStore *self, guint32 stack,
                                                       guint32 *parent, guint32 *frame);
/* Paths: stacks with their frames merged by method (the call tree's nodes). */
guint              jvms_samples_store_get_n_call_paths     (JvmsSamplesStore *self);
void               jvms_samples_store_get_call_path   (JvmsSamplesStore *self, guint32 path,
                                                       guint32 *parent, guint32 *method,
                                                       guint32 *frame_kinds);
guint32            jvms_samples_store_get_stack_call_path  (JvmsSamplesStore *self, guint32 stack);
guint              jvms_samples_store_get_n_threads   (JvmsSamplesStore *self);
void               jvms_samples_store_get_thread      (JvmsSamplesStore *self, guint32 thread,
                                                       gint64 *tid, const char **name);
guint              jvms_samples_store_get_n_types     (JvmsSamplesStore *self);
void               jvms_samples_store_get_type        (JvmsSamplesStore *self, guint32 type,
                                                       const char **name, JvmsSampleUnit *unit,
                                                       JvmsSampleTypeFlags *flags,
                                                       guint64 *n_samples, guint64 *weight);
/* The first type called @name, or NONE (a name may have a second, wall-clock type). */
guint32            jvms_samples_store_find_type       (JvmsSamplesStore *self, const char *name);

guint              jvms_samples_store_get_n_blocks    (JvmsSamplesStore *self);
void               jvms_samples_store_get_block_span  (JvmsSamplesStore *self, guint block,
                                                       gint64 *first_time, gint64 *last_time,
                                                       guint *n_samples);
guint              jvms_samples_store_get_n_levels    (JvmsSamplesStore *self);
/* Complete nodes of @level (1..n_levels): node m covers blocks [m << level, (m + 1) << level). */
guint              jvms_samples_store_get_n_nodes     (JvmsSamplesStore *self, guint level);
/* FALSE for a node left out (it would have summed little): read its two halves instead. */
gboolean           jvms_samples_store_has_node        (JvmsSamplesStore *self, guint level,
                                                       guint node);

const JvmsSamplesCompilation *jvms_samples_store_get_compilations (JvmsSamplesStore *self,
                                                                   guint            *n);
const JvmsSamplesTiming      *jvms_samples_store_get_timings      (JvmsSamplesStore *self,
                                                                   guint            *n);

/* Decodes block @block into @out (a GArray of JvmsSampleRecord, emptied first). */
gboolean           jvms_samples_store_read_block      (JvmsSamplesStore *self, guint block,
                                                       GArray *out, GError **error);

typedef struct
{
  guint32 stack;              /* NONE for samples without a stack */
  guint64 count;              /* samples */
  guint64 weight;
  guint64 on_cpu;             /* CPU types: samples by kernel state (the rest is unknown) */
  guint64 waiting;
} JvmsSamplesEntry;

/* Calls @entry for every entry of node (@level, @node) whose section @want accepts (NULL: all);
 * sections it refuses are skipped unread. From level JVMS_SAMPLES_ALL_THREADS_LEVEL up, each
 * type also has a section of thread JVMS_SAMPLES_NONE: its threads' entries added together. */
typedef gboolean (*JvmsSamplesSectionFunc) (guint32 type, guint32 thread, gpointer user_data);
typedef void     (*JvmsSamplesEntryFunc)   (guint32 type, guint32 thread,
                                            const JvmsSamplesEntry *entry, gpointer user_data);
gboolean           jvms_samples_store_read_node       (JvmsSamplesStore       *self,
                                                       guint                   level,
                                                       guint                   node,
                                                       JvmsSamplesSectionFunc  want,
                                                       JvmsSamplesEntryFunc    entry,
                                                       gpointer                user_data,
                                                       GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsSamplesStore, jvms_samples_store_unref)

/* ------------------------------------------------------------------------------------------ */
/* Every sample, in time order, in the older form */

typedef struct _JvmsSamplesReader JvmsSamplesReader;

JvmsSamplesReader *jvms_samples_reader_open   (const char         *path,
                                               GError            **error);
/* FALSE at the end (error unset) or on damage (error names file and offset). The sample and
 * its strings stay valid until the next call. */
gboolean           jvms_samples_reader_next   (JvmsSamplesReader  *self,
                                               JvmsSample         *out,
                                               GError            **error);
void               jvms_samples_reader_free   (JvmsSamplesReader  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsSamplesWriter, jvms_samples_writer_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsSamplesReader, jvms_samples_reader_free)

G_END_DECLS
