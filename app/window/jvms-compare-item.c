/* jvms-compare-item.c: a row of the comparison table (see the header). */
#include "config.h"

#include "jvms-compare-item.h"

#include <glib/gi18n.h>
#include <math.h>

struct _JvmsCompareItem
{
  GObject          parent_instance;

  JvmsCompareTable table;
  char            *name;
  char            *unit;
  double           values[JVMS_COMPARE_COLUMN_N];
};

G_DEFINE_FINAL_TYPE (JvmsCompareItem, jvms_compare_item, G_TYPE_OBJECT)

static void
jvms_compare_item_finalize (GObject *object)
{
  JvmsCompareItem *self = JVMS_COMPARE_ITEM (object);
  g_free (self->name);
  g_free (self->unit);
  G_OBJECT_CLASS (jvms_compare_item_parent_class)->finalize (object);
}

static void
jvms_compare_item_class_init (JvmsCompareItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_compare_item_finalize;
}

static void
jvms_compare_item_init (JvmsCompareItem *self)
{
}

JvmsCompareItem *
jvms_compare_item_new (JvmsCompareTable table, const JvmsCompareRow *row)
{
  g_return_val_if_fail (row != NULL, NULL);
  JvmsCompareItem *self = g_object_new (JVMS_TYPE_COMPARE_ITEM, NULL);
  self->table = table;
  self->unit = g_strdup (row->unit);
  /* Named as the text names the row (jvms-compare-text.c). */
  GString *name = g_string_new (row->name);
  if (row->thread_kind != NULL)
    g_string_append_printf (name, " (%s, %u → %u) %s", row->thread_kind, row->baseline_threads,
                            row->other_threads, row->state);
  if (row->collector != NULL)
    g_string_append_printf (name, " %s", row->collector);
  self->name = g_string_free (name, FALSE);
  /* Methods compare shares of the CPU samples; the rest rates per second. */
  gboolean shares = table == JVMS_COMPARE_METHODS;
  self->values[JVMS_COMPARE_COLUMN_BASELINE] = shares ? row->baseline_share : row->baseline_per_s;
  self->values[JVMS_COMPARE_COLUMN_OTHER] = shares ? row->other_share : row->other_per_s;
  self->values[JVMS_COMPARE_COLUMN_CHANGE] = shares ? row->change_share : row->change_per_s;
  self->values[JVMS_COMPARE_COLUMN_UNCERTAINTY] = shares ? row->uncertainty_share : row->uncertainty_per_s;
  self->values[JVMS_COMPARE_COLUMN_SIGNIFICANT] = row->significant ? 1 : 0;
  self->values[JVMS_COMPARE_COLUMN_BASELINE_ABS] = row->baseline;
  self->values[JVMS_COMPARE_COLUMN_OTHER_ABS] = row->other;
  return self;
}

JvmsCompareTable
jvms_compare_item_get_table (JvmsCompareItem *self)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_ITEM (self), 0);
  return self->table;
}

const char *
jvms_compare_item_get_name (JvmsCompareItem *self)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_ITEM (self), NULL);
  return self->name;
}

double
jvms_compare_item_get_value (JvmsCompareItem *self, JvmsCompareColumn column)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_ITEM (self), 0);
  return (guint) column < JVMS_COMPARE_COLUMN_N ? self->values[column] : 0;
}

/* An absolute amount in its unit. */
static char *
format_amount (const char *unit, double v)
{
  if (g_strcmp0 (unit, "ns") == 0)
    /* Translators: seconds of thread time. */
    return g_strdup_printf (_("%.3f s"), v / 1e9);
  if (g_strcmp0 (unit, "bytes") == 0)
    /* Translators: megabytes. */
    return g_strdup_printf (_("%.2f MB"), v / 1e6);
  return g_strdup_printf ("%.0f", v);
}

char *
jvms_compare_item_dup_text (JvmsCompareItem *self, JvmsCompareColumn column)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_ITEM (self), NULL);
  gboolean shares = self->table == JVMS_COMPARE_METHODS;
  double v = self->values[MIN ((guint) column, JVMS_COMPARE_COLUMN_N - 1)];
  switch (column)
    {
    case JVMS_COMPARE_COLUMN_NAME:
      return g_strdup (self->name);
    case JVMS_COMPARE_COLUMN_BASELINE:
    case JVMS_COMPARE_COLUMN_OTHER:
      return shares ? jvms_compare_format_share (v) : jvms_compare_format_rate (self->unit, v);
    case JVMS_COMPARE_COLUMN_CHANGE:
      {
        g_autofree char *text = shares ? jvms_compare_format_share (v)
                                       : jvms_compare_format_rate (self->unit, v);
        return g_strconcat (v > 0 ? "+" : "", text, NULL);
      }
    case JVMS_COMPARE_COLUMN_UNCERTAINTY:
      {
        g_autofree char *text = shares ? jvms_compare_format_share (v)
                                       : jvms_compare_format_rate (self->unit, v);
        return g_strconcat ("± ", text, NULL);
      }
    case JVMS_COMPARE_COLUMN_SIGNIFICANT:
      /* Translators: a change that stands out of the noise (docs/compare.md). */
      return g_strdup (v != 0 ? _("significant") : "");
    case JVMS_COMPARE_COLUMN_BASELINE_ABS:
    case JVMS_COMPARE_COLUMN_OTHER_ABS:
      return format_amount (self->unit, v);
    default:
      return g_strdup ("");
    }
}
