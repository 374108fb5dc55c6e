/* jvms-timeline.h: the base of every view drawn on the session's time axis.
 *
 * It owns what all views share: the session binding, navigation (wheel, keys, drag to select),
 * the label gutter, the selection band and hover line, tooltips, vertical scrolling of rows and
 * the cache discipline. A subclass lists its rows when the history changes (reload), queries the
 * index for the visible window when range, data or size change (compute) and draws only from
 * what compute cached (draw). snapshot() never queries the index unless one of those changed.
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-palette.h"
#include "jvms-session.h"

G_BEGIN_DECLS

/* Width of the label column on the left of every view and of the ruler, so that the time axes
 * of stacked views line up. */
#define JVMS_TIMELINE_GUTTER 180
/* Height of a line of the legend strip at the top of every view; rows scroll below it. The
 * legend wraps onto more lines when its entries do not fit the width. */
#define JVMS_TIMELINE_LEGEND_HEIGHT 18

typedef struct
{
  const char *label; /* translated, static */
  JvmsColor   color;
} JvmsLegendEntry;

typedef struct
{
  int                width;      /* whole area */
  int                height;
  int                gutter;     /* data area is [gutter, width) */
  int                top;        /* rows start below the legend, at this y */
  int                n_columns;  /* width - gutter, at least 1 */
  gint64             t0;         /* visible range [t0, t1) */
  gint64             t1;
  double             v_offset;   /* pixels of content scrolled above the top; a row at
                                  * content y is drawn at top + y - v_offset */
  double             band_top;   /* content rows to compute: [band_top, band_bottom). The part */
  double             band_bottom;/* on screen, which is less than the widget inside a scroller */
  double             draw_top;   /* widget rows drawn: [draw_top, draw_bottom), the band's and */
  double             draw_bottom;/* the legend's when it shows. Every image is this tall at most */
  gboolean           offscreen;  /* an export or render, not a frame: work a view spreads over
                                  * frames (folded groups' summaries) is finished at once */
  const JvmsPalette *palette;
} JvmsTimelineGeometry;

#define JVMS_TYPE_TIMELINE (jvms_timeline_get_type ())
G_DECLARE_DERIVABLE_TYPE (JvmsTimeline, jvms_timeline, JVMS, TIMELINE, GtkWidget)

struct _JvmsTimelineClass
{
  GtkWidgetClass parent_class;

  /* The history changed (replaced or grown): rebuild the row list. @history may be NULL. */
  void      (*reload)             (JvmsTimeline               *self,
                                   JvmsHistory                *history);
  /* Height in pixels of all rows; the base scrolls over it. */
  int       (*get_content_height) (JvmsTimeline               *self);
  /* Query the index for @geometry (rows between v_offset and v_offset + height) and cache. */
  void      (*compute)            (JvmsTimeline               *self,
                                   JvmsHistory                *history,
                                   const JvmsTimelineGeometry *geometry);
  /* Draw from the cache; the base has painted the background and the gutter. */
  void      (*draw)               (JvmsTimeline               *self,
                                   cairo_t                    *cr,
                                   const JvmsTimelineGeometry *geometry);
  /* Tooltip markup-free text for content point (@x, @y: y includes the scroll offset) at
   * @time, or NULL. May query the index: it runs once per pointer position. */
  char     *(*tooltip)            (JvmsTimeline               *self,
                                   JvmsHistory                *history,
                                   const JvmsTimelineGeometry *geometry,
                                   double                      x,
                                   double                      y,
                                   gint64                      time);
  /* A click (no drag) at content point (@x, @y); @in_gutter when on the labels. */
  void      (*click)              (JvmsTimeline               *self,
                                   JvmsHistory                *history,
                                   const JvmsTimelineGeometry *geometry,
                                   double                      x,
                                   double                      y,
                                   gint64                      time,
                                   gboolean                    in_gutter);
  /* The view's name (translated, static), drawn above the labels and given to AT-SPI. */
  const char *(*get_title)        (JvmsTimeline               *self);
  /* Appends JvmsLegendEntry items for the legend strip. */
  void      (*legend)             (JvmsTimeline               *self,
                                   const JvmsPalette          *palette,
                                   GArray                     *entries);
  /* A sentence for assistive technologies describing the rows (translated). */
  char     *(*describe)           (JvmsTimeline               *self);
  /* Rows, for keyboard navigation, scrolling to a row and rendering rows [a, b): how many, and
   * where row @row lies in content pixels (rows are in order, top to bottom). A view without
   * them is one block of content. */
  guint     (*get_n_rows)         (JvmsTimeline               *self);
  void      (*get_row_bounds)     (JvmsTimeline               *self,
                                   guint                       row,
                                   int                        *y,
                                   int                        *height);
  /* Enter on row @row (fold or unfold a group); NULL when rows do nothing. */
  void      (*activate_row)       (JvmsTimeline               *self,
                                   guint                       row);
  /* Instead of the two above: every row is this many pixels high (CPUs, locks, counters). */
  int       uniform_row_height;

  gpointer padding[2];
};

JvmsSession *jvms_timeline_get_session        (JvmsTimeline *self);
void         jvms_timeline_set_session        (JvmsTimeline *self,
                                               JvmsSession  *session);
/* Subclasses call it when something only they know changed (filter, collapsed group):
 * recompute the cache on the next frame. */
void         jvms_timeline_invalidate         (JvmsTimeline *self);
/* ... and this when only their drawing changed (a metric shown from the same cache). */
void         jvms_timeline_redraw             (JvmsTimeline *self);
/* ... and this when their row list changed (relists rows, then recomputes). */
void         jvms_timeline_reload             (JvmsTimeline *self);
double       jvms_timeline_get_v_offset       (JvmsTimeline *self);
void         jvms_timeline_set_v_offset       (JvmsTimeline *self,
                                               double        v_offset);

/* Height of the legend strip (whole lines) at @width: where the rows start. */
int          jvms_timeline_get_legend_height  (JvmsTimeline *self,
                                               int           width);

/* Legend entries the last frame had no room for (0 when the legend was drawn whole). */
guint        jvms_timeline_get_legend_cut     (JvmsTimeline *self);

/* Renders the view into @cr at @width x @height without a window (export, bench, tests):
 * computes for that size (querying the index) and draws, in pieces of a few thousand pixel
 * rows, each querying only its rows. Light theme unless @dark. */
void         jvms_timeline_render             (JvmsTimeline *self,
                                               cairo_t      *cr,
                                               int           width,
                                               int           height,
                                               gboolean      dark);

/* The same, computed as a frame on screen computes it (not an export): work a view spreads over
 * frames (the threads view's folded groups, jvms_threads_view_step_summaries) is only begun.
 * What a frame of the window costs, for the bench. */
void         jvms_timeline_render_frame       (JvmsTimeline *self,
                                               cairo_t      *cr,
                                               int           width,
                                               int           height,
                                               gboolean      dark);

/* The widget rows [@y0, @y1) of the view laid out at @width x @height, into @cr with @y0 at its
 * origin: computes only the rows of that part (export in tiles, bench, tests). */
void         jvms_timeline_render_part        (JvmsTimeline *self,
                                               cairo_t      *cr,
                                               int           width,
                                               int           height,
                                               int           y0,
                                               int           y1,
                                               gboolean      dark);
/* Rows [@first, @end) (get_n_rows, get_row_bounds), without the legend, into @cr from its origin
 * down, in pieces of at most a few thousand pixels: what a command-line render of any number of
 * rows draws. */
void         jvms_timeline_render_rows        (JvmsTimeline *self,
                                               cairo_t      *cr,
                                               int           width,
                                               guint         first,
                                               guint         end,
                                               gboolean      dark);
guint        jvms_timeline_get_n_rows         (JvmsTimeline *self);
/* Content y and height of @row; FALSE when the view has no such row. */
gboolean     jvms_timeline_get_row_bounds     (JvmsTimeline *self,
                                               guint         row,
                                               int          *y,
                                               int          *height);

/* The row the keyboard is on (Up, Down, Page Up, Page Down, Ctrl+Home, Ctrl+End move it;
 * Enter acts on it), G_MAXUINT when none. Setting it scrolls it into view. */
guint        jvms_timeline_get_cursor_row     (JvmsTimeline *self);
void         jvms_timeline_set_cursor_row     (JvmsTimeline *self,
                                               guint         row);

/* A press of the primary button is being dragged (selecting or not) and not yet released: the
 * selection it makes is not final. */
gboolean     jvms_timeline_is_dragging        (JvmsTimeline *self);

/* Helpers for subclasses and tests. */
double       jvms_timeline_time_to_x          (const JvmsTimelineGeometry *geometry,
                                               gint64                      time);
gint64       jvms_timeline_x_to_time          (const JvmsTimelineGeometry *geometry,
                                               double                      x);
/* Fills @geometry for the widget's current size and session. */
void         jvms_timeline_get_geometry       (JvmsTimeline               *self,
                                               JvmsTimelineGeometry       *geometry);
/* The text of the tooltip at widget point (@x, @y), as the tooltip would show it. */
char        *jvms_timeline_get_tooltip_text_at (JvmsTimeline              *self,
                                                double                     x,
                                                double                     y);
/* Draws @text in the gutter (or anywhere) at @x, @y (top-left), ellipsized to @max_width. */
void         jvms_timeline_draw_label         (cairo_t                    *cr,
                                               const JvmsColor            *color,
                                               double                      x,
                                               double                      y,
                                               int                         max_width,
                                               const char                 *text,
                                               gboolean                    bold);


G_END_DECLS
