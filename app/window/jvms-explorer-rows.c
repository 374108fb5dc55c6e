/* jvms-explorer-rows.c: rows made on demand (see the header). */
#include "config.h"

#include "jvms-explorer-rows.h"

#include "jvms-explorer-row.h"

struct _JvmsExplorerRows
{
  GObject  parent_instance;
  GArray  *rows;   /* guint64, start order (the answer's; not ours to change) */
  GArray  *order;  /* guint64, the shown order: NULL when it is @rows' */
};

static GType
rows_get_item_type (GListModel *model)
{
  return JVMS_TYPE_EXPLORER_ROW;
}

static guint
rows_get_n_items (GListModel *model)
{
  JvmsExplorerRows *self = JVMS_EXPLORER_ROWS (model);
  return self->rows != NULL ? self->rows->len : 0;
}

static gpointer
rows_get_item (GListModel *model, guint position)
{
  JvmsExplorerRows *self = JVMS_EXPLORER_ROWS (model);
  if (self->rows == NULL || position >= self->rows->len)
    return NULL;
  return jvms_explorer_row_new (jvms_explorer_rows_get_row (self, position));
}

static void
list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = rows_get_item_type;
  iface->get_n_items = rows_get_n_items;
  iface->get_item = rows_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (JvmsExplorerRows, jvms_explorer_rows, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_init))

static void
jvms_explorer_rows_finalize (GObject *object)
{
  JvmsExplorerRows *self = JVMS_EXPLORER_ROWS (object);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->order, g_array_unref);
  G_OBJECT_CLASS (jvms_explorer_rows_parent_class)->finalize (object);
}

static void
jvms_explorer_rows_class_init (JvmsExplorerRowsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_explorer_rows_finalize;
}

static void
jvms_explorer_rows_init (JvmsExplorerRows *self)
{
}

JvmsExplorerRows *
jvms_explorer_rows_new (void)
{
  return g_object_new (JVMS_TYPE_EXPLORER_ROWS, NULL);
}

void
jvms_explorer_rows_set (JvmsExplorerRows *self, GArray *rows)
{
  g_return_if_fail (JVMS_IS_EXPLORER_ROWS (self));
  guint old = rows_get_n_items (G_LIST_MODEL (self));
  g_clear_pointer (&self->order, g_array_unref);
  g_clear_pointer (&self->rows, g_array_unref);
  self->rows = rows != NULL ? g_array_ref (rows) : NULL;
  guint now = rows_get_n_items (G_LIST_MODEL (self));
  if (old > 0 || now > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, now);
}

guint64
jvms_explorer_rows_get_row (JvmsExplorerRows *self, guint position)
{
  g_return_val_if_fail (JVMS_IS_EXPLORER_ROWS (self), G_MAXUINT64);
  GArray *a = self->order != NULL ? self->order : self->rows;
  return a != NULL && position < a->len ? g_array_index (a, guint64, position) : G_MAXUINT64;
}

guint
jvms_explorer_rows_find (JvmsExplorerRows *self, guint64 row)
{
  g_return_val_if_fail (JVMS_IS_EXPLORER_ROWS (self), G_MAXUINT);
  GArray *a = self->order != NULL ? self->order : self->rows;
  for (guint i = 0; a != NULL && i < a->len; i++)
    if (g_array_index (a, guint64, i) == row)
      return i;
  return G_MAXUINT;
}

typedef struct
{
  GCompareDataFunc compare;
  gpointer         data;
} Sort;

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  Sort *s = user_data;
  return s->compare (a, b, s->data);
}

void
jvms_explorer_rows_sort (JvmsExplorerRows *self, GCompareDataFunc compare, gpointer user_data)
{
  g_return_if_fail (JVMS_IS_EXPLORER_ROWS (self));
  g_clear_pointer (&self->order, g_array_unref);
  guint n = rows_get_n_items (G_LIST_MODEL (self));
  if (compare != NULL && n > 0)
    {
      self->order = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
      g_array_append_vals (self->order, self->rows->data, n);
      Sort s = { compare, user_data };
      g_array_sort_with_data (self->order, compare_rows, &s);
    }
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, n);
}
