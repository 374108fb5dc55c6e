/* jvms-timeline-private.h: what the files of JvmsTimeline share (jvms-timeline.c, the base;
 * jvms-timeline-input.c, navigation and selection; jvms-timeline-labels.c, the labels' shaping
 * cache). Views use jvms-timeline.h only. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

typedef struct
{
  JvmsSession *session;
  gulong       history_changed_id;
  gulong       notify_id;

  /* What the cache was computed for; generation counts invalidations. */
  gint64       cached_t0;
  gint64       cached_t1;
  int          cached_columns;
  int          cached_height;
  double       cached_v_offset;
  double       cached_band_top;
  double       cached_band_bottom;
  guint        generation;
  guint        cached_generation;
  gboolean     cache_valid;
  gboolean     cached_offscreen; /* computed for an export: a frame's cache may be partial */

  double       v_offset;
  gboolean     dark;

  double       pointer_x;
  double       pointer_y;
  gboolean     pointer_inside;

  GtkAdjustment *scroll_adjustment; /* of the enclosing scrolled window, while rooted */
  gulong       scrolled_id;

  /* Size of the last frame or offscreen render: the geometry of a view not on screen. */
  int          last_width;
  int          last_height;

  /* The drawn content of the last frame (everything but selection and hover). */
  GskRenderNode *content;
  gboolean     content_valid;
  gboolean     content_dark;
  int          content_width;
  int          content_height;
  double       content_top;    /* the widget rows it covers */
  double       content_bottom;

  gboolean     dragging;
  gboolean     drag_selects;
  double       drag_start_x;
  double       drag_start_y;
  gint64       drag_start_time;
  /* Consecutive wheel zooms form one step of the zoom history. */
  gboolean     wheel_zooming;

  /* The row the keyboard is on (jvms-timeline-rows.c), G_MAXUINT for none. */
  guint        cursor_row;

  /* Legend entries the last drawing had no room for (tests read it). */
  guint        legend_cut;
} JvmsTimelinePrivate;

JvmsTimelinePrivate *_jvms_timeline_get_private  (JvmsTimeline *self);
/* The session's history, or NULL. */
JvmsHistory         *_jvms_timeline_get_history  (JvmsTimeline *self);

/* jvms-timeline-input.c: adds the wheel, key, pointer and drag controllers. */
void                 _jvms_timeline_add_input    (JvmsTimeline *self);

/* jvms-timeline-rows.c: the keys that move among rows (Up, Down, Page Up, Page Down,
 * Ctrl+Home, Ctrl+End) and act on one (Enter, space); TRUE when @keyval was one of them. */
gboolean             _jvms_timeline_row_key      (JvmsTimeline    *self,
                                                  guint            keyval,
                                                  GdkModifierType  state);
/* The row at content @y, or G_MAXUINT. */
guint                _jvms_timeline_row_at       (JvmsTimeline    *self,
                                                  double           y);
/* The keyboard row's mark, over the part of @geometry drawn. */
void                 _jvms_timeline_snapshot_cursor (JvmsTimeline               *self,
                                                     GtkSnapshot                *snapshot,
                                                     const JvmsTimelineGeometry *geometry);

/* jvms-timeline-labels.c: @length bytes of @text shaped for @cr, ellipsized to @max_width
 * pixels (negative: unbounded); owned by the cache, valid until the next call. */
PangoLayout         *_jvms_timeline_label_layout (cairo_t      *cr,
                                                  gboolean      bold,
                                                  int           max_width,
                                                  const char   *text,
                                                  gsize         length);

G_END_DECLS
