/* jvms-explorer-row.h: one record of the Explorer pane's table, as a list model's item: the
 * record's row in the answer's JvmsRecordTable (jvms-explorer-query.h); the cells read the table. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define JVMS_TYPE_EXPLORER_ROW (jvms_explorer_row_get_type ())
G_DECLARE_FINAL_TYPE (JvmsExplorerRow, jvms_explorer_row, JVMS, EXPLORER_ROW, GObject)

JvmsExplorerRow *jvms_explorer_row_new     (guint64          row);
guint64          jvms_explorer_row_get_row (JvmsExplorerRow *self);

G_END_DECLS
