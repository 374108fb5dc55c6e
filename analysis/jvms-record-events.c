/* jvms-record-events.c: the events of one type as records (jvms-record-events.h). */
#include "jvms-record-events.h"

#include "jvms-trace-detect.h"
#include "jvms-event-query.h"

typedef struct
{
  JvmsRecordTable         *table;
  JvmsThreadList          *threads;
  const JvmsEventTypeInfo *type;
  gint64                   origin;
  guint                    start, epoch, duration, tid, thread;
  int                     *field_columns; /* per field of the type; -1 until its first value */
} Reader;

static int
field_column (Reader *r, guint field, guint8 kind)
{
  if (r->field_columns[field] >= 0)
    return r->field_columns[field];
  const char *name = r->type->fields[field].name;
  g_autofree char *unique = jvms_record_table_lookup (r->table, name) >= 0
                              ? g_strconcat ("field.", name, NULL) : g_strdup (name);
  if (jvms_record_table_lookup (r->table, unique) >= 0)
    return -1;
  JvmsRecordColumnKind column_kind;
  gboolean metric = FALSE;
  switch (kind)
    {
    case JVMS_EVENT_VALUE_STRING:
      column_kind = JVMS_RECORD_COLUMN_STRING;
      break;
    case JVMS_EVENT_VALUE_TIMESTAMP:
    case JVMS_EVENT_VALUE_TRUE:
    case JVMS_EVENT_VALUE_FALSE:
      column_kind = JVMS_RECORD_COLUMN_INT;
      break;
    case JVMS_EVENT_VALUE_INT:
    case JVMS_EVENT_VALUE_DOUBLE:
    case JVMS_EVENT_VALUE_TIMESPAN:
      column_kind = JVMS_RECORD_COLUMN_DOUBLE;
      metric = TRUE;
      break;
    default:
      return -1;
    }
  r->field_columns[field] = (int) jvms_record_table_add_column (r->table, unique, column_kind, metric);
  return r->field_columns[field];
}

static gboolean
add_event (const JvmsEventRecord *e, gpointer user_data)
{
  Reader *r = user_data;
  guint64 row = jvms_record_table_add_row (r->table);
  jvms_record_table_set_int (r->table, r->start, row, e->time - r->origin);
  jvms_record_table_set_int (r->table, r->epoch, row, e->time);
  if (e->duration >= 0)
    jvms_record_table_set_int (r->table, r->duration, row, e->duration);
  if (e->tid != 0)
    {
      jvms_record_table_set_int (r->table, r->tid, row, e->tid);
      const JvmsThreadInfo *t = r->threads != NULL ? jvms_thread_list_lookup (r->threads, e->tid) : NULL;
      jvms_record_table_set_string (r->table, r->thread, row, t != NULL ? t->name : NULL);
    }
  for (guint i = 0; i < e->n_values; i++)
    {
      const JvmsEventValue *v = &e->values[i];
      if (v->field >= r->type->n_fields)
        continue;
      int c = field_column (r, v->field, v->kind);
      if (c < 0)
        continue;
      switch (jvms_record_table_get_kind (r->table, (guint) c))
        {
        case JVMS_RECORD_COLUMN_STRING:
          if (v->kind == JVMS_EVENT_VALUE_STRING)
            jvms_record_table_set_string (r->table, (guint) c, row, v->s);
          break;
        case JVMS_RECORD_COLUMN_INT:
          if (v->kind == JVMS_EVENT_VALUE_TRUE || v->kind == JVMS_EVENT_VALUE_FALSE)
            jvms_record_table_set_int (r->table, (guint) c, row, v->kind == JVMS_EVENT_VALUE_TRUE);
          else if (v->kind == JVMS_EVENT_VALUE_TIMESTAMP || v->kind == JVMS_EVENT_VALUE_INT)
            jvms_record_table_set_int (r->table, (guint) c, row, v->i);
          break;
        case JVMS_RECORD_COLUMN_DOUBLE:
        default:
          if (v->kind == JVMS_EVENT_VALUE_DOUBLE)
            jvms_record_table_set_double (r->table, (guint) c, row, v->d);
          else if (v->kind == JVMS_EVENT_VALUE_INT || v->kind == JVMS_EVENT_VALUE_TIMESPAN)
            jvms_record_table_set_double (r->table, (guint) c, row, (double) v->i);
          break;
        }
    }
  return TRUE;
}

JvmsRecordTable *
jvms_record_events_read (JvmsEventStore *store, JvmsThreadList *threads, const char *type_name,
                         gint64 origin, gint64 from, gint64 to, GError **error)
{
  guint32 type = jvms_event_store_find_type (store, type_name);
  if (type == JVMS_EVENT_NONE)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_NOT_FOUND,
                   "%s: no event of type “%s”", jvms_event_store_get_path (store), type_name);
      return NULL;
    }
  g_autoptr(JvmsRecordTable) table = jvms_record_table_new ();
  Reader r = {
    .table = table,
    .threads = threads,
    .type = jvms_event_store_get_type (store, type),
    .origin = origin,
    .start = jvms_record_table_add_column (table, "start", JVMS_RECORD_COLUMN_INT, FALSE),
    .epoch = jvms_record_table_add_column (table, "epoch_ns", JVMS_RECORD_COLUMN_INT, FALSE),
    .duration = jvms_record_table_add_column (table, "duration", JVMS_RECORD_COLUMN_INT, TRUE),
    .tid = jvms_record_table_add_column (table, "tid", JVMS_RECORD_COLUMN_INT, FALSE),
    .thread = jvms_record_table_add_column (table, "thread", JVMS_RECORD_COLUMN_STRING, FALSE),
  };
  g_autofree int *columns = g_new (int, MAX (r.type->n_fields, 1));
  for (guint i = 0; i < r.type->n_fields; i++)
    columns[i] = -1;
  r.field_columns = columns;
  JvmsEventFilter filter = { .from = from, .to = to,
                             .keep_types = JVMS_EVENT_KEEP_THESE, .types = &type, .n_types = 1,
                             .keep_tids = JVMS_EVENT_KEEP_ALL };
  g_autoptr(JvmsEventQuery) query = jvms_event_query_new (store, &filter, error);
  if (query == NULL)
    return NULL;
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
  if (!jvms_event_query_foreach (query, cursor, 0, TRUE, add_event, &r, error))
    return NULL;
  return g_steal_pointer (&table);
}
