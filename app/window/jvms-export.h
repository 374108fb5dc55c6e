/* jvms-export.h: the visible views as PNG or SVG, the selection's statistics as CSV or JSON. */
#pragma once

#include <adwaita.h>

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

/* Ask for a file name, export, and report the outcome as a toast. */
void     jvms_export_views_with_dialog      (GtkWindow                *parent,
                                             JvmsWindowViews          *views,
                                             GtkWidget                *widget);
void     jvms_export_statistics_with_dialog (GtkWindow                *parent,
                                             const JvmsRangeStats *stats,
                                             AdwToastOverlay          *toasts);

G_END_DECLS
