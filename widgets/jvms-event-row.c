/* jvms-event-row.c: rows of the event table and the pages they point into. */
#include "jvms-event-row.h"

#include <string.h>

struct _JvmsEventPage
{
  gatomicrefcount  ref;
  guint            index;     /* page number in the model */
  JvmsEventBatch  *batch;
  gboolean         damaged;
};

JvmsEventPage *
jvms_event_page_new (guint index, JvmsEventBatch *batch, gboolean damaged)
{
  JvmsEventPage *page = g_new0 (JvmsEventPage, 1);
  g_atomic_ref_count_init (&page->ref);
  page->index = index;
  page->batch = batch;
  page->damaged = damaged;
  return page;
}

guint
jvms_event_page_get_index (JvmsEventPage *page)
{
  return page->index;
}

JvmsEventPage *
jvms_event_page_ref (JvmsEventPage *page)
{
  g_atomic_ref_count_inc (&page->ref);
  return page;
}

void
jvms_event_page_unref (JvmsEventPage *page)
{
  if (page == NULL || !g_atomic_ref_count_dec (&page->ref))
    return;
  jvms_event_batch_free (page->batch);
  g_free (page);
}

/* ------------------------------------------------------------------------------------------ */

struct _JvmsEventRow
{
  GObject        parent_instance;
  JvmsEventPage *page;
  guint          index;      /* in the page */
  guint          position;   /* in the model */
};

G_DEFINE_FINAL_TYPE (JvmsEventRow, jvms_event_row, G_TYPE_OBJECT)

static void
jvms_event_row_finalize (GObject *object)
{
  JvmsEventRow *self = JVMS_EVENT_ROW (object);
  jvms_event_page_unref (self->page);
  G_OBJECT_CLASS (jvms_event_row_parent_class)->finalize (object);
}

static void
jvms_event_row_class_init (JvmsEventRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_event_row_finalize;
}

static void
jvms_event_row_init (JvmsEventRow *self)
{
}

JvmsEventRow *
jvms_event_row_new (JvmsEventPage *page, guint index, guint position)
{
  JvmsEventRow *self = g_object_new (JVMS_TYPE_EVENT_ROW, NULL);
  self->page = jvms_event_page_ref (page);
  self->index = index;
  self->position = position;
  return self;
}

gboolean
jvms_event_row_get_record (JvmsEventRow *self, JvmsEventRecord *out)
{
  g_return_val_if_fail (JVMS_IS_EVENT_ROW (self), FALSE);
  if (self->page->damaged || self->index >= jvms_event_batch_get_len (self->page->batch))
    {
      memset (out, 0, sizeof *out);
      out->row = self->position;
      out->duration = -1;
      return FALSE;
    }
  jvms_event_batch_get (self->page->batch, self->index, out);
  return TRUE;
}

guint
jvms_event_row_get_position (JvmsEventRow *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_ROW (self), 0);
  return self->position;
}
