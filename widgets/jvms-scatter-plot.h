/* jvms-scatter-plot.h: a scatter plot of two metrics of records (issue 22, docs/records.md,
 * "The Explorer pane"), drawn at screen resolution: the points are binned into the plot's
 * pixels once per data and size (never per frame), in a worker thread whose picture is swapped in
 * when it is done (the last picture is drawn meanwhile; a worker's picture of points or a size
 * replaced since is dropped), and a pixel with any point in it is marked,
 * darker the more points it holds, so that no point is hidden and millions of points draw as fast
 * as a few. A drag draws a rectangle; at its release the widget emits "selected" with that
 * rectangle in data coordinates (a click clears it).
 *
 * The plot only draws: which records are in the rectangle is its owner's to say.
 *
 * Signals:
 *   selected (double x0, double x1, double y0, double y1)  x0 <= x1, y0 <= y1; all NaN: cleared
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define JVMS_TYPE_SCATTER_PLOT (jvms_scatter_plot_get_type ())
G_DECLARE_FINAL_TYPE (JvmsScatterPlot, jvms_scatter_plot, JVMS, SCATTER_PLOT, GtkWidget)

GtkWidget *jvms_scatter_plot_new            (void);
/* @x and @y (@n values each) are copied; a pair with a NaN or infinite value is left out. */
void       jvms_scatter_plot_set_points     (JvmsScatterPlot *self,
                                             const double    *x,
                                             const double    *y,
                                             gsize            n);
void       jvms_scatter_plot_set_labels     (JvmsScatterPlot *self,
                                             const char      *x_label,
                                             const char      *y_label);
/* The points drawn (pairs with both values finite). */
gsize      jvms_scatter_plot_get_n_points   (JvmsScatterPlot *self);
/* The data range the axes span: FALSE when there are no points. */
gboolean   jvms_scatter_plot_get_range      (JvmsScatterPlot *self,
                                             double           range[4]);
/* The plot area inside the widget (x, y, width, height in widget pixels). */
void       jvms_scatter_plot_get_area       (JvmsScatterPlot *self,
                                             int              area[4]);
/* The pixels of the last binning that hold at least one point (0 until the points' first
 * picture is in). */
gsize      jvms_scatter_plot_get_n_marked   (JvmsScatterPlot *self);
/* A worker is binning the points: what is drawn is not yet their picture. */
gboolean   jvms_scatter_plot_is_binning     (JvmsScatterPlot *self);
/* The points binned at @width x @height on the calling thread, as the worker does: for tests
 * and benches. */
cairo_surface_t *jvms_scatter_plot_bin_now  (JvmsScatterPlot *self,
                                             int              width,
                                             int              height,
                                             gsize           *n_marked);
/* The selected rectangle (x0, x1, y0, y1): FALSE when none. */
gboolean   jvms_scatter_plot_get_selection  (JvmsScatterPlot *self,
                                             double           rect[4]);
void       jvms_scatter_plot_clear_selection (JvmsScatterPlot *self);

G_END_DECLS
