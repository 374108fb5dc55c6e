/* jvms-disk-requests.c: block requests as intervals in slots (see the header). */
#include "jvms-disk-requests.h"

typedef struct
{
  JvmsAttribute a_pid, a_bytes, a_op, a_issued;
  gboolean      busy;
  gint64        free_since; /* when its last request completed */
} Slot;

typedef struct
{
  guint    slot;     /* G_MAXUINT: none was free */
  gboolean issued;
  gint64   since;    /* its insert (or issue) */
} Request;

struct _JvmsDiskRequests
{
  JvmsWriter *writer;
  char       *device;
  GArray     *slots;    /* Slot */
  GHashTable *pending;  /* guint64 sector -> GQueue of Request*, oldest first */
  guint       n_pending;
  guint64     n_overflow;
};

static void
queue_free (gpointer data)
{
  g_queue_free_full (data, g_free);
}

JvmsDiskRequests *
jvms_disk_requests_new (JvmsWriter *writer,
                        const char *device)
{
  JvmsDiskRequests *self = g_new0 (JvmsDiskRequests, 1);
  self->writer = writer;
  self->device = g_strdup (device);
  self->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  self->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, queue_free);
  return self;
}

void
jvms_disk_requests_free (JvmsDiskRequests *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->slots);
  g_hash_table_unref (self->pending);
  g_free (self->device);
  g_free (self);
}

guint64
jvms_disk_requests_n_overflow (JvmsDiskRequests *self)
{
  return self->n_overflow;
}

guint64
jvms_disk_requests_n_outstanding (JvmsDiskRequests *self,
                                  gint64            before,
                                  gint64           *oldest)
{
  guint64 n = 0;
  GHashTableIter iter;
  gpointer value;

  *oldest = G_MAXINT64;
  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    for (GList *l = ((GQueue *) value)->head; l != NULL; l = l->next)
      {
        const Request *r = l->data;
        if (r->since > before)
          continue;
        n++;
        *oldest = MIN (*oldest, r->since);
      }
  return n;
}

/* The lowest free slot, its attributes made at its first use; G_MAXUINT when all are busy. A
 * slot freed at @time is not taken at @time: two requests would read as one interval. */
static guint
take_slot (JvmsDiskRequests *self,
           gint64            time)
{
  guint i;

  for (i = 0; i < self->slots->len; i++)
    if (!g_array_index (self->slots, Slot, i).busy &&
        g_array_index (self->slots, Slot, i).free_since < time)
      break;
  if (i == self->slots->len)
    {
      Slot s = { .free_since = G_MININT64 };
      if (i >= JVMS_DISK_REQUESTS_MAX_SLOTS)
        return G_MAXUINT;
      s.a_pid = jvms_writer_attribute (self->writer, "Disk/%s/requests/%u", self->device, i);
      s.a_bytes = jvms_writer_child (self->writer, s.a_pid, "bytes");
      s.a_op = jvms_writer_child (self->writer, s.a_pid, "op");
      s.a_issued = jvms_writer_child (self->writer, s.a_pid, "issued");
      g_array_append_val (self->slots, s);
    }
  g_array_index (self->slots, Slot, i).busy = TRUE;
  return i;
}

static void
begin (JvmsDiskRequests *self,
       gint64            time,
       guint64           sector,
       guint32           nr_sector,
       const char       *rwbs,
       gint32            pid,
       gboolean          issued)
{
  GQueue *queue;
  Request *r;

  if (self->n_pending >= JVMS_DISK_REQUESTS_MAX_PENDING)
    {
      self->n_overflow++;
      return;
    }
  r = g_new0 (Request, 1);
  r->slot = take_slot (self, time);
  r->issued = issued;
  r->since = time;
  if (r->slot == G_MAXUINT)
    self->n_overflow++;
  else
    {
      Slot *s = &g_array_index (self->slots, Slot, r->slot);
      if (pid >= 0)
        jvms_writer_set_int (self->writer, s->a_pid, time, pid);
      else
        /* The interval must show even when its process is unknown: pid 0 stands for none. */
        jvms_writer_set_int (self->writer, s->a_pid, time, 0);
      jvms_writer_set_int (self->writer, s->a_bytes, time, (gint64) nr_sector * 512);
      jvms_writer_set_string (self->writer, s->a_op, time, rwbs[0] != '\0' ? rwbs : NULL);
      jvms_writer_set_int (self->writer, s->a_issued, time, issued ? 1 : 0);
    }
  queue = g_hash_table_lookup (self->pending, &sector);
  if (queue == NULL)
    {
      queue = g_queue_new ();
      g_hash_table_insert (self->pending, g_memdup2 (&sector, sizeof sector), queue);
    }
  g_queue_push_tail (queue, r);
  self->n_pending++;
}

/* A flush carries no data: issued at sector 0, the kernel reports its completion at sector
 * 2^64 - 1 (blk_rq_pos of a request with no data left). Flushes are matched among flushes. */
static guint64
key_of (guint64     sector,
        guint32     nr_sector,
        const char *rwbs)
{
  return rwbs[0] == 'F' && nr_sector == 0 ? G_MAXUINT64 : sector;
}

void
jvms_disk_requests_insert (JvmsDiskRequests *self,
                           gint64            time,
                           guint64           sector,
                           guint32           nr_sector,
                           const char       *rwbs,
                           gint32            pid)
{
  begin (self, time, key_of (sector, nr_sector, rwbs), nr_sector, rwbs, pid, FALSE);
}

void
jvms_disk_requests_issue (JvmsDiskRequests *self,
                          gint64            time,
                          guint64           sector,
                          guint32           nr_sector,
                          const char       *rwbs,
                          gint32            pid)
{
  GQueue *queue;

  sector = key_of (sector, nr_sector, rwbs);
  queue = g_hash_table_lookup (self->pending, &sector);

  /* The oldest request queued at that sector goes to the device; one issued again (requeued by
   * the driver) stays as it was; one never queued (the kernel bypassed its scheduler) begins. */
  for (GList *l = queue != NULL ? queue->head : NULL; l != NULL; l = l->next)
    {
      Request *r = l->data;
      if (r->issued)
        continue;
      r->issued = TRUE;
      if (r->slot != G_MAXUINT)
        jvms_writer_set_int (self->writer, g_array_index (self->slots, Slot, r->slot).a_issued,
                             time, 1);
      return;
    }
  if (queue != NULL && queue->length > 0)
    return;
  begin (self, time, sector, nr_sector, rwbs, pid, TRUE);
}

void
jvms_disk_requests_complete (JvmsDiskRequests *self,
                             gint64            time,
                             guint64           sector)
{
  GQueue *queue = g_hash_table_lookup (self->pending, &sector);
  GList *done = NULL;
  Request *r;

  if (queue == NULL || queue->length == 0)
    return;
  /* The oldest issued one: a queued request cannot complete before it was issued. */
  for (GList *l = queue->head; l != NULL && done == NULL; l = l->next)
    if (((Request *) l->data)->issued)
      done = l;
  if (done == NULL)
    done = queue->head;
  if (done == NULL)
    return;
  r = done->data;
  g_queue_delete_link (queue, done);
  if (queue->length == 0)
    g_hash_table_remove (self->pending, &sector);
  self->n_pending--;
  if (r->slot != G_MAXUINT)
    {
      Slot *s = &g_array_index (self->slots, Slot, r->slot);
      jvms_writer_set_null (self->writer, s->a_pid, time);
      jvms_writer_set_null (self->writer, s->a_bytes, time);
      jvms_writer_set_null (self->writer, s->a_op, time);
      jvms_writer_set_null (self->writer, s->a_issued, time);
      s->busy = FALSE;
      s->free_since = time;
    }
  g_free (r);
}
