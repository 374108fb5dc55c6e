/* jvms-disk-view.h: per block device (Disk/<major:minor>), the request queue depth over time
 * (Disk/<dev>/queue: requests inserted and not completed) as bars, then a row per request slot
 * (Disk/<dev>/requests/<slot>: analysis/jvms-disk-requests.h) with each request a bar in the
 * colour of the process that issued it. The paper's second use case. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_DISK_VIEW (jvms_disk_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsDiskView, jvms_disk_view, JVMS, DISK_VIEW, JvmsTimeline)

#define JVMS_DISK_VIEW_ROW_HEIGHT 16
#define JVMS_DISK_VIEW_LANE_Y 2
#define JVMS_DISK_VIEW_LANE_HEIGHT 12

GtkWidget *jvms_disk_view_new          (JvmsSession  *session);
guint      jvms_disk_view_get_n_devices (JvmsDiskView *self);
guint      jvms_disk_view_get_n_rows    (JvmsDiskView *self);

G_END_DECLS
