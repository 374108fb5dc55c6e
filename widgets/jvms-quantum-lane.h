/* jvms-quantum-lane.h: a thread's kernel lane drawn by its scheduling quanta (issue 22,
 * docs/views.md, "Quanta: colour, shade and glyphs"): its time on a CPU coloured by the CPU or
 * the thread, shaded by a metric of each quantum, and a glyph where a quantum ended preempted
 * (left runnable) or yielded (gave up the CPU: blocked). The threads view asks for these lanes
 * beside each row's kernel lane when the session's quantum-colour is not "state" or it has a
 * quantum-shade.
 *
 * The numbers are those of the quanta (docs/records.md): a counter read at every context switch
 * is `Threads/<tid>/switch-counters/<name>`, written over each run from its switch-in to its
 * switch-out, so the value that held longest in a pixel column is the count of the quantum that
 * held the CPU longest there: `jvmscope-cli records` gives the same count for that quantum
 * (exact). A run whose context-switches count is above 1 held an unrecorded switch and has no
 * value, as in the records. A trace without counters read at switches shades by the periodic
 * samples' rate (`counters/<name>`, events per second on CPU): estimated, and the legend and the
 * tooltip say so. "ipc" is instructions / cycles, "miss-ratio" cache-misses / cache-references,
 * any other name a counter.
 *
 * Glyphs mark how a quantum ended, as the records' `end` says: left runnable, a preemption (▼
 * at the lane's top edge, in the column of the switch-out), gave up the CPU (sleeping or in disk
 * wait), a yield (a vertical tick). They are looked for where a quantum covers a whole column:
 * where a column wholly on a CPU is followed by one that is not, the switch-out and the state
 * after it are read by point queries of the kernel state (a few a glyph, at most
 * JVMS_QUANTUM_GLYPH_QUERIES a frame; past that the legend says some are left out). Quanta
 * narrower than a column get none, and a glyph closer than 4 px to the row's previous one is
 * left out: zoom in to see each.
 */
#pragma once

#include "jvms-thread-list.h"
#include "jvms-timeline.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_QUANTUM_COLOUR_STATE,
  JVMS_QUANTUM_COLOUR_CPU,
  JVMS_QUANTUM_COLOUR_THREAD,
} JvmsQuantumColour;

/* The lanes a row asks beside its kernel lane: the CPU, the shade's numerator and denominator,
 * and context-switches (runs that held an unrecorded switch). */
#define JVMS_QUANTUM_LANES 4

#define JVMS_QUANTUM_GLYPH_QUERIES 4096

typedef struct
{
  int  column;
  char kind;   /* 'p' preempted, 'y' yielded */
} JvmsQuantumGlyph;

/* The shades there are beside the counters. */
extern const char * const jvms_quantum_shades[];

typedef struct
{
  JvmsQuantumColour colour;
  char             *shade;      /* NULL: none */
  const char       *numerator;  /* counter names the shade reads (static or in shade) */
  const char       *denominator;/* NULL for a counter alone */
  gboolean          exact;      /* read at switches (switch-counters/), else sampled rates */
  gboolean          found;      /* some thread of the history has the counters */
  double            vmax;       /* the scale's top: values from 0 to vmax */
  double            trace_top;  /* the largest value over the whole trace, NaN until the
                                 * history is complete (the scale is then what is on screen) */
  gboolean          any_value;  /* some column of the last scale had a value */
  guint             glyph_queries; /* point queries left this frame */
  gboolean          glyphs_cut;    /* some glyphs were not looked for */
  char             *low_text;   /* the legend's words about the scale's bottom */
  char             *scale_text; /* and its top */
} JvmsQuantumMode;

gboolean  jvms_quantum_colour_parse   (const char                 *nick,
                                       JvmsQuantumColour          *out);
void      jvms_quantum_mode_init      (JvmsQuantumMode            *self);
void      jvms_quantum_mode_clear     (JvmsQuantumMode            *self);
/* Reads the session's choice (@colour nick, @shade) and which counters @history has. */
void      jvms_quantum_mode_set       (JvmsQuantumMode            *self,
                                       JvmsHistory                *history,
                                       JvmsThreadList             *threads,
                                       const char                 *colour,
                                       const char                 *shade);
/* jvms_quantum_mode_set with @session's history and choice (NULL: none), as each view asks. */
void      jvms_quantum_mode_set_from_session (JvmsQuantumMode     *self,
                                              struct _JvmsSession *session,
                                              JvmsThreadList      *threads);
/* The names a shade may have on @history (NULL-terminated, g_strfreev): "none", each counter
 * of the JVM's threads (read at switches or sampled), "ipc" and "miss-ratio" where both their
 * counters are there. */
char    **jvms_quantum_shade_names    (JvmsHistory                *history,
                                       JvmsThreadList             *threads);
/* Anything other than the state colours: the extra lanes and the glyphs are drawn. */
gboolean  jvms_quantum_mode_active    (const JvmsQuantumMode      *self);
/* The JVMS_QUANTUM_LANES attributes of @thread (JVMS_ATTRIBUTE_INVALID where it has none). */
void      jvms_quantum_mode_lanes     (const JvmsQuantumMode      *self,
                                       JvmsHistory                *history,
                                       const JvmsThreadInfo       *thread,
                                       JvmsAttribute              *out);
/* The scale: restart, then each row's cells (lanes may hold NULLs), then finish (rounds the
 * largest value up to 1, 2 or 5 × 10^n). Once the history is complete the largest value is the
 * whole trace's (trace_top), whatever is on screen: the largest the shade has where a JVM
 * thread is on a CPU, for a counter read at switches the largest count `jvmscope-cli records`
 * gives a quantum. */
void      jvms_quantum_mode_scale_begin (JvmsQuantumMode          *self);
void      jvms_quantum_mode_scale_row (JvmsQuantumMode            *self,
                                       const JvmsTimelineGeometry *g,
                                       const JvmsSummaryCell      *kernel,
                                       const JvmsSummaryCell *const *lanes);
void      jvms_quantum_mode_scale_finish (JvmsQuantumMode         *self);
/* An int or double value as a double; FALSE for any other. */
gboolean  jvms_quantum_value_number   (const JvmsValue            *v,
                                       double                     *out);
/* The shade's value from its counters' values at one time (NaN where missing): @num, @den
 * (ignored for a counter alone) and @cs, the run's context-switches. */
double    jvms_quantum_mode_value_of  (const JvmsQuantumMode      *self,
                                       double                      num,
                                       double                      den,
                                       double                      cs);
/* The shade's value in column @c (NaN: none). */
double    jvms_quantum_mode_value     (const JvmsQuantumMode      *self,
                                       const JvmsSummaryCell *const *lanes,
                                       int                         c);
/* The colour of an on-CPU column of @tid's row, shaded. */
JvmsColor jvms_quantum_mode_color     (const JvmsQuantumMode      *self,
                                       const JvmsPalette          *palette,
                                       gint64                      tid,
                                       const JvmsSummaryCell      *kernel,
                                       const JvmsSummaryCell *const *lanes,
                                       int                         c);
/* Draws the kernel lane of @tid's row between @y and @y + @height, and its @n_glyphs glyphs. */
void      jvms_quantum_lane_draw      (const JvmsQuantumMode      *self,
                                       cairo_t                    *cr,
                                       const JvmsTimelineGeometry *g,
                                       gint64                      tid,
                                       const JvmsSummaryCell      *kernel,
                                       const JvmsSummaryCell *const *lanes,
                                       const JvmsQuantumGlyph     *glyphs,
                                       guint                       n_glyphs,
                                       double                      y,
                                       double                      height);
/* Appends to @out the glyphs of a row whose kernel lane is @kernel_state with @kernel's cells
 * (the 4 px rule not yet applied), spending the frame's point queries; begin_glyphs restores
 * them. */
void      jvms_quantum_mode_begin_glyphs (JvmsQuantumMode         *self);
void      jvms_quantum_mode_find_glyphs (JvmsQuantumMode          *self,
                                       JvmsHistory                *history,
                                       const JvmsTimelineGeometry *g,
                                       JvmsAttribute               kernel_state,
                                       const JvmsSummaryCell      *kernel,
                                       const JvmsSummaryCell      *cpu,
                                       GArray                     *out);
/* The colour of column @c of a lane. */
typedef JvmsColor (*JvmsQuantumColumnColor) (const JvmsPalette *palette,
                                             int                c,
                                             gpointer           data);
/* Draws a lane column by column in @color's colours, the mixed marks of @cells and @glyphs:
 * what jvms_quantum_lane_draw does for a thread, for any lane (the CPUs view's). */
void      jvms_quantum_lane_paint     (cairo_t                    *cr,
                                       const JvmsTimelineGeometry *g,
                                       const JvmsSummaryCell      *cells,
                                       JvmsQuantumColumnColor      color,
                                       gpointer                    data,
                                       const JvmsQuantumGlyph     *glyphs,
                                       guint                       n_glyphs,
                                       double                      y,
                                       double                      height);
void      jvms_quantum_mode_legend    (JvmsQuantumMode            *self,
                                       const JvmsPalette          *palette,
                                       GArray                     *entries);
/* A tooltip line about the quantum of @thread at @time ("IPC 1.23 (exact: …)"), or NULL. */
char     *jvms_quantum_mode_describe  (const JvmsQuantumMode      *self,
                                       JvmsHistory                *history,
                                       const JvmsThreadInfo       *thread,
                                       gint64                      time);
/* "shaded by ipc from 0 to 2 (exact: ...)": what `jvmscope-cli render` prints. */
char     *jvms_quantum_mode_summary   (const JvmsQuantumMode      *self);

G_END_DECLS
