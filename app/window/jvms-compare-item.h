/* jvms-compare-item.h: a row of the comparison window's table (jvms-compare-table.h): one row
 * of a JvmsComparison's table, copied (the comparison may be replaced while the row is shown),
 * with what each column shows and sorts on. */
#pragma once

#include <glib-object.h>

#include "jvms-compare.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_COMPARE_COLUMN_NAME,         /* the kind, class, target, group and state, method, measure */
  JVMS_COMPARE_COLUMN_BASELINE,     /* the baseline's rate (methods: share of CPU samples) */
  JVMS_COMPARE_COLUMN_OTHER,        /* the other's */
  JVMS_COMPARE_COLUMN_CHANGE,       /* other - baseline */
  JVMS_COMPARE_COLUMN_UNCERTAINTY,  /* of the change */
  JVMS_COMPARE_COLUMN_SIGNIFICANT,  /* 1 or 0 */
  JVMS_COMPARE_COLUMN_BASELINE_ABS, /* over the baseline's range, in the row's unit */
  JVMS_COMPARE_COLUMN_OTHER_ABS,
} JvmsCompareColumn;
#define JVMS_COMPARE_COLUMN_N 8

#define JVMS_TYPE_COMPARE_ITEM (jvms_compare_item_get_type ())
G_DECLARE_FINAL_TYPE (JvmsCompareItem, jvms_compare_item, JVMS, COMPARE_ITEM, GObject)

JvmsCompareItem  *jvms_compare_item_new        (JvmsCompareTable       table,
                                                const JvmsCompareRow  *row);
JvmsCompareTable  jvms_compare_item_get_table  (JvmsCompareItem       *self);
/* The row's name as the text names it ("client-# (java, 4 → 12) user:blocked"). */
const char       *jvms_compare_item_get_name   (JvmsCompareItem       *self);
/* The number a column sorts on (NAME: 0). */
double            jvms_compare_item_get_value  (JvmsCompareItem       *self,
                                                JvmsCompareColumn      column);
/* What a column's cell shows: `jvmscope-cli compare`'s text for the same number. */
char             *jvms_compare_item_dup_text   (JvmsCompareItem       *self,
                                                JvmsCompareColumn      column);

G_END_DECLS
