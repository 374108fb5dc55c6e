/* jvms-export.h: the visible views as PNG or SVG, the selection's statistics as CSV or JSON;
 * the profiler's flame graph as PNG or SVG, its folded stacks and its method table as CSV. */
#pragma once

#include <adwaita.h>

#include "jvms-profiler-pane.h"
#include "jvms-range-stats.h"
#include "jvms-window-views.h"

G_BEGIN_DECLS

/* Renders @widget as it is on screen into @file: SVG when @file ends in ".svg", else PNG. */
gboolean jvms_export_widget_image           (GtkWidget                *widget,
                                             GFile                    *file,
                                             GError                  **error);
/* The ruler and the shown views of @views with all their rows, rendered offscreen as wide as
 * @widget is on screen; @widget's own rendering when there are no views. An SVG is one file;
 * a PNG taller than JVMS_EXPORT_TILE_HEIGHT is written as tiles of that height, NAME-1.png,
 * NAME-2.png … beside @file, each rendered on its own: no image is past cairo's limits or
 * holds more than a tile. *@n_files (may be NULL) says how many files were written. */
#define JVMS_EXPORT_TILE_HEIGHT 8192
gboolean jvms_export_views_image            (JvmsWindowViews          *views,
                                             GtkWidget                *widget,
                                             GFile                    *file,
                                             guint                    *n_files,
                                             GError                  **error);
/* The file of tile @index (from 1) of an export to @file: "views.png" -> "views-3.png". */
GFile   *jvms_export_tile_file              (GFile                    *file,
                                             guint                     index);
/* JSON when @file ends in ".json", else CSV. */
gboolean jvms_export_statistics             (const JvmsRangeStats *stats,
                                             GFile                    *file,
                                             GError                  **error);

/* The pane's flame graph as it shows it, as wide as on screen (800 px at least), every row:
 * SVG when @file ends in ".svg", else PNG. */
gboolean jvms_export_flame_graph            (JvmsProfilerPane         *pane,
                                             GFile                    *file,
                                             GError                  **error);

typedef enum
{
  JVMS_EXPORT_PROFILE_FLAME_GRAPH,
  JVMS_EXPORT_PROFILE_FOLDED,       /* folded stacks, as jvmscope-cli profile --folded */
  JVMS_EXPORT_PROFILE_METHODS,      /* the method table, as jvmscope-cli profile --csv */
} JvmsExportProfile;

/* Ask for a file name, export, and report the outcome as a toast. */
void     jvms_export_views_with_dialog      (GtkWindow                *parent,
                                             JvmsWindowViews          *views,
                                             GtkWidget                *widget);
void     jvms_export_statistics_with_dialog (GtkWindow                *parent,
                                             const JvmsRangeStats *stats,
                                             AdwToastOverlay          *toasts);

/* What the profiler shows at the time of asking. */
void     jvms_export_profile_with_dialog    (GtkWindow                *parent,
                                             JvmsProfilerPane         *pane,
                                             JvmsExportProfile         what,
                                             AdwToastOverlay          *toasts);

G_END_DECLS
