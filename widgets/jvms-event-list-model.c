/* jvms-event-list-model.c: rows of a record source, read a page at a time off the main thread
 * (see the header). */
#include "jvms-event-list-model.h"

/* What the reading thread shares with the model, which may be gone before a read ends. */
typedef struct
{
  gatomicrefcount   ref;
  GMutex            lock;      /* a source is read from one thread at a time */
  JvmsRecordSource *source;
  gint              cancelled; /* atomic: the list let it go; its queued reads are skipped */
} Reader;

typedef struct
{
  Reader        *reader;
  JvmsEventPage *page;
  guint64        serial;    /* the newest request is read first */
  GMainContext  *context;
  GWeakRef       model;
  JvmsEventBatch *batch;
  GError        *error;
} Job;

struct _JvmsEventListModel
{
  GObject           parent_instance;
  JvmsRecordSource *source;
  Reader           *reader;
  guint             n_items;
  GQueue            pages;     /* JvmsEventPage *, most recent first */
  guint64           n_reads;
  guint             n_pending;
  gboolean          warned;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (JvmsEventListModel, jvms_event_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static Reader *
reader_new (JvmsRecordSource *source)
{
  Reader *r = g_new0 (Reader, 1);
  g_atomic_ref_count_init (&r->ref);
  g_mutex_init (&r->lock);
  r->source = g_object_ref (source);
  return r;
}

static Reader *
reader_ref (Reader *r)
{
  g_atomic_ref_count_inc (&r->ref);
  return r;
}

static void
reader_unref (Reader *r)
{
  if (r == NULL || !g_atomic_ref_count_dec (&r->ref))
    return;
  g_object_unref (r->source);
  g_mutex_clear (&r->lock);
  g_free (r);
}

static void
job_free (Job *job)
{
  reader_unref (job->reader);
  jvms_event_page_unref (job->page);
  g_main_context_unref (job->context);
  g_weak_ref_clear (&job->model);
  g_clear_pointer (&job->batch, jvms_event_batch_free);
  g_clear_error (&job->error);
  g_free (job);
}

/* Main thread: the page arrived. */
static gboolean
job_deliver (gpointer data)
{
  Job *job = data;
  g_autoptr(JvmsEventListModel) self = g_weak_ref_get (&job->model);
  gboolean ok = job->error == NULL;
  if (self != NULL)
    {
      self->n_pending--;
      if (!ok && !self->warned)
        g_warning ("%s", job->error->message);
      self->warned |= !ok;
    }
  jvms_event_page_fill (job->page, g_steal_pointer (&job->batch), !ok);
  return G_SOURCE_REMOVE;
}

/* The reading thread. */
static void
job_run (gpointer data, gpointer pool_data)
{
  Job *job = data;
  /* Scrolled past before its turn, or the list has another source or none: nobody would see it. */
  if (jvms_event_page_is_wanted (job->page) && !g_atomic_int_get (&job->reader->cancelled))
    {
      job->batch = jvms_event_batch_new ();
      g_mutex_lock (&job->reader->lock);
      jvms_record_source_read (job->reader->source,
                               (guint64) jvms_event_page_get_index (job->page) * JVMS_EVENT_LIST_PAGE,
                               JVMS_EVENT_LIST_PAGE, job->batch, &job->error);
      g_mutex_unlock (&job->reader->lock);
    }
  else
    {
      /* Still delivered, empty, so that the model counts it done. */
      job->batch = jvms_event_batch_new ();
    }
  /* An idle source, not g_main_context_invoke (): that runs the function in this thread when
   * the context is free at that moment, and pages and rows are the main thread's. */
  GSource *idle = g_idle_source_new ();
  g_source_set_priority (idle, G_PRIORITY_DEFAULT);
  g_source_set_callback (idle, job_deliver, job, (GDestroyNotify) job_free);
  g_source_set_static_name (idle, "[jvmscope] event page");
  g_source_attach (idle, job->context);
  g_source_unref (idle);
}

static gint
job_newest_first (gconstpointer a, gconstpointer b, gpointer data)
{
  const Job *ja = a, *jb = b;
  return ja->serial < jb->serial ? 1 : ja->serial > jb->serial ? -1 : 0;
}

/* One reading thread for every list: reads of one store are serial anyway, the newest request
 * goes first, and the thread is never stopped, so that every job queued runs and is delivered
 * (and freed) on the main context, whatever became of its list. */
static GThreadPool *
reading_pool (void)
{
  static GThreadPool *pool;
  if (g_once_init_enter (&pool))
    {
      GThreadPool *p = g_thread_pool_new (job_run, NULL, 1, FALSE, NULL);
      g_thread_pool_set_sort_function (p, job_newest_first, NULL);
      g_once_init_leave (&pool, p);
    }
  return pool;
}

static void
let_reader_go (JvmsEventListModel *self)
{
  if (self->reader != NULL)
    g_atomic_int_set (&self->reader->cancelled, 1);
  g_clear_pointer (&self->reader, reader_unref);
}

static void
drop_pages (JvmsEventListModel *self)
{
  for (GList *l = self->pages.head; l != NULL; l = l->next)
    jvms_event_page_release (l->data);
  g_queue_clear_full (&self->pages, (GDestroyNotify) jvms_event_page_unref);
}

static void
jvms_event_list_model_dispose (GObject *object)
{
  JvmsEventListModel *self = JVMS_EVENT_LIST_MODEL (object);
  drop_pages (self);
  let_reader_go (self);
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

static void
request_page (JvmsEventListModel *self, JvmsEventPage *page)
{
  static guint64 serial;
  Job *job = g_new0 (Job, 1);
  job->reader = reader_ref (self->reader);
  job->page = jvms_event_page_ref (page);
  job->serial = ++serial;
  job->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&job->model, self);
  self->n_pending++;
  self->n_reads++;
  g_thread_pool_push (reading_pool (), job, NULL);
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
  JvmsEventPage *page = jvms_event_page_new_pending (index);
  request_page (self, page);
  g_queue_push_head (&self->pages, page);
  while (self->pages.length > JVMS_EVENT_LIST_PAGES)
    {
      JvmsEventPage *old = g_queue_pop_tail (&self->pages);
      jvms_event_page_release (old);
      jvms_event_page_unref (old);
    }
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
  /* Reads queued for the old source are skipped, one under way fills a page nobody shows. */
  let_reader_go (self);
  if (source != NULL)
    self->reader = reader_new (source);
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

gboolean
jvms_event_list_model_read (JvmsEventListModel *self,
                            guint64             position,
                            guint               n,
                            JvmsEventBatch     *batch,
                            GError            **error)
{
  g_return_val_if_fail (JVMS_IS_EVENT_LIST_MODEL (self), FALSE);
  if (self->reader == NULL)
    return TRUE;
  g_mutex_lock (&self->reader->lock);
  gboolean ok = jvms_record_source_read (self->reader->source, position, n, batch, error);
  g_mutex_unlock (&self->reader->lock);
  return ok;
}

guint64
jvms_event_list_model_get_n_reads (JvmsEventListModel *self)
{
  return self->n_reads;
}

guint
jvms_event_list_model_get_n_pending (JvmsEventListModel *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_LIST_MODEL (self), 0);
  return self->n_pending;
}
