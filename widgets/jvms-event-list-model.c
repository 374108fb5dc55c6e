/* jvms-event-list-model.c: rows of a record source, read a page at a time (see the header). */
#include "jvms-event-list-model.h"

/* ------------------------------------------------------------------------------------------ */

struct _JvmsEventListModel
{
  GObject           parent_instance;
  JvmsRecordSource *source;
  guint             n_items;
  GQueue            pages;     /* JvmsEventPage *, most recent first */
  guint64           n_reads;
  gboolean          warned;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (JvmsEventListModel, jvms_event_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
drop_pages (JvmsEventListModel *self)
{
  g_queue_clear_full (&self->pages, (GDestroyNotify) jvms_event_page_unref);
}

static void
jvms_event_list_model_dispose (GObject *object)
{
  JvmsEventListModel *self = JVMS_EVENT_LIST_MODEL (object);
  drop_pages (self);
  g_clear_object (&self->source);
  G_OBJECT_CLASS (jvms_event_list_model_parent_class)->dispose (object);
}

static void
jvms_event_list_model_class_init (JvmsEventListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = jvms_event_list_model_dispose;
}

static void
jvms_event_list_model_init (JvmsEventListModel *self)
{
  g_queue_init (&self->pages);
}

static GType
get_item_type (GListModel *model)
{
  return JVMS_TYPE_EVENT_ROW;
}

static guint
get_n_items (GListModel *model)
{
  return JVMS_EVENT_LIST_MODEL (model)->n_items;
}

static JvmsEventPage *
page_for (JvmsEventListModel *self, guint index)
{
  for (GList *l = self->pages.head; l != NULL; l = l->next)
    {
      JvmsEventPage *page = l->data;
      if (jvms_event_page_get_index (page) == index)
        {
          if (l != self->pages.head)
            {
              g_queue_unlink (&self->pages, l);
              g_queue_push_head_link (&self->pages, l);
            }
          return page;
        }
    }
  JvmsEventBatch *batch = jvms_event_batch_new ();
  g_autoptr(GError) error = NULL;
  gboolean ok = jvms_record_source_read (self->source, (guint64) index * JVMS_EVENT_LIST_PAGE,
                                         JVMS_EVENT_LIST_PAGE, batch, &error);
  if (!ok && !self->warned)
    g_warning ("%s", error->message);
  self->warned |= !ok;
  JvmsEventPage *page = jvms_event_page_new (index, batch, !ok);
  self->n_reads++;
  g_queue_push_head (&self->pages, page);
  while (self->pages.length > JVMS_EVENT_LIST_PAGES)
    jvms_event_page_unref (g_queue_pop_tail (&self->pages));
  return page;
}

static gpointer
get_item (GListModel *model, guint position)
{
  JvmsEventListModel *self = JVMS_EVENT_LIST_MODEL (model);
  if (position >= self->n_items)
    return NULL;
  JvmsEventPage *page = page_for (self, position / JVMS_EVENT_LIST_PAGE);
  return jvms_event_row_new (page, position % JVMS_EVENT_LIST_PAGE, position);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

JvmsEventListModel *
jvms_event_list_model_new (void)
{
  return g_object_new (JVMS_TYPE_EVENT_LIST_MODEL, NULL);
}

void
jvms_event_list_model_set_source (JvmsEventListModel *self, JvmsRecordSource *source)
{
  g_return_if_fail (JVMS_IS_EVENT_LIST_MODEL (self));
  g_return_if_fail (source == NULL || JVMS_IS_RECORD_SOURCE (source));
  guint old = self->n_items;
  drop_pages (self);
  g_set_object (&self->source, source);
  guint64 n = source != NULL ? jvms_record_source_get_n_records (source) : 0;
  /* A list view counts rows in a guint. */
  self->n_items = (guint) MIN (n, (guint64) G_MAXUINT);
  self->warned = FALSE;
  if (old > 0 || self->n_items > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->n_items);
}

JvmsRecordSource *
jvms_event_list_model_get_source (JvmsEventListModel *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_LIST_MODEL (self), NULL);
  return self->source;
}

guint64
jvms_event_list_model_get_n_reads (JvmsEventListModel *self)
{
  return self->n_reads;
}
