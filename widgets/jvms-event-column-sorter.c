/* jvms-event-column-sorter.c: column sorters that tell which column sorts (see the header). */
#include "jvms-event-column-sorter.h"

struct _JvmsEventColumnSorter
{
  GtkSorter  parent_instance;
  GObject   *probe;   /* unowned: the table's, outliving its columns */
  guint      id;
};

G_DEFINE_FINAL_TYPE (JvmsEventColumnSorter, jvms_event_column_sorter, GTK_TYPE_SORTER)

/* The column whose sorter was asked last; read right after the one comparison that sets it. */
static guint asked_id;
static gboolean asked;

static GtkOrdering
compare (GtkSorter *sorter, gpointer a, gpointer b)
{
  JvmsEventColumnSorter *self = JVMS_EVENT_COLUMN_SORTER (sorter);
  if (a != self->probe || b == a)
    return GTK_ORDERING_EQUAL;
  asked = TRUE;
  asked_id = self->id;
  return GTK_ORDERING_SMALLER;
}

static GtkSorterOrder
get_order (GtkSorter *sorter)
{
  return GTK_SORTER_ORDER_PARTIAL;
}

static void
jvms_event_column_sorter_class_init (JvmsEventColumnSorterClass *klass)
{
  GtkSorterClass *sorter_class = GTK_SORTER_CLASS (klass);
  sorter_class->compare = compare;
  sorter_class->get_order = get_order;
}

static void
jvms_event_column_sorter_init (JvmsEventColumnSorter *self)
{
}

GtkSorter *
jvms_event_column_sorter_new (GObject *probe, guint id)
{
  JvmsEventColumnSorter *self = g_object_new (JVMS_TYPE_EVENT_COLUMN_SORTER, NULL);
  self->probe = probe;
  self->id = id;
  return GTK_SORTER (self);
}

gboolean
jvms_event_column_sorter_find_primary (GtkSorter *sorter, GObject *probe, guint *id,
                                       gboolean *descending)
{
  g_return_val_if_fail (GTK_IS_SORTER (sorter), FALSE);
  asked = FALSE;
  /* Any other object as the second: only the probe on the left is answered. */
  GtkOrdering o = gtk_sorter_compare (sorter, probe, sorter);
  if (!asked || o == GTK_ORDERING_EQUAL)
    return FALSE;
  *id = asked_id;
  *descending = o == GTK_ORDERING_LARGER;
  return TRUE;
}
