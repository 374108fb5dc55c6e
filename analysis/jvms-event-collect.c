/* jvms-event-collect.c: JFR and kernel events into rows of the event store. */
#include "jvms-event-collect.h"

#include <string.h>

#include "jvms-threads.h"

/* Nested objects are flattened down to this many levels below the event. */
#define MAX_DEPTH        4
/* Simple types wrapping simple types: a cycle in damaged metadata ends here. */
#define MAX_NEST         16
/* Elements of an array shown in its text, and the text's length. */
#define MAX_ARRAY_SHOWN  64
#define MAX_TEXT         4096
/* Block requests waiting for completion; past it the oldest is closed as unknown. */
#define MAX_OPEN_REQUESTS 65536

typedef enum
{
  MODE_SKIP,      /* a column of the row header */
  MODE_BOOLEAN,
  MODE_INT,
  MODE_CHAR,
  MODE_TIME,      /* @Timestamp or @Timespan */
  MODE_FLOAT,
  MODE_STRING,
  MODE_THREAD,
  MODE_CLASS,
  MODE_METHOD,
  MODE_STACK,
  MODE_SIMPLE,    /* a simple type: the value it wraps (in child 0, same store field) */
  MODE_FLATTEN,   /* members as "field.member" */
  MODE_ARRAY,     /* text */
} Mode;

typedef struct Entry Entry;
struct Entry
{
  const JvmsJfrField *field;
  Mode                mode;
  guint               store_field;  /* G_MAXUINT: not stored itself (FLATTEN, SKIP, full) */
  JvmsEventValueKind  time_kind;    /* MODE_TIME: TIMESTAMP or TIMESPAN */
  GArray             *children;     /* Entry: FLATTEN members, or SIMPLE's one */
};

typedef struct
{
  guint32             type;         /* in the store; NONE when the store is full of types */
  const JvmsJfrField *thread;       /* eventThread, else sampledThread */
  guint               n_fields;
  GArray             *entries;      /* Entry, one per top-level field */
  JvmsJfrValue       *values;       /* scratch for jvms_jfr_event_get_values */
} Plan;

typedef struct
{
  guint64 row;
  gint64  start;
} OpenSyscall;

typedef struct
{
  guint64 key;          /* dev << 44 ^ sector */
  guint64 row;
  gint64  start;
  gint64  issue;        /* G_MININT64 until issued */
  guint64 seq;
} OpenRequest;

struct _JvmsEventCollect
{
  JvmsEventWriter   *writer;
  JvmsEventStackFunc stack_func;
  gpointer           stack_data;
  GHashTable        *plans;       /* const JvmsJfrType * -> Plan * */
  GHashTable        *syscalls;    /* tid (gint64 *) -> OpenSyscall */
  GHashTable        *requests;    /* key (guint64 *) -> OpenRequest */
  guint64            request_seq;
  GHashTable        *kernel_types; /* name -> type id + 1 */
  GString           *text;
};

/* ------------------------------------------------------------------------------------------ */

static void
entry_clear (gpointer p)
{
  Entry *e = p;
  g_clear_pointer (&e->children, g_array_unref);
}

static GArray *
entry_array (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (a, entry_clear);
  return a;
}

static void
plan_free (gpointer p)
{
  Plan *plan = p;
  g_array_unref (plan->entries);
  g_free (plan->values);
  g_free (plan);
}

JvmsEventCollect *
jvms_event_collect_new (JvmsEventWriter *writer)
{
  JvmsEventCollect *self = g_new0 (JvmsEventCollect, 1);
  self->writer = writer;
  self->plans = g_hash_table_new_full (NULL, NULL, NULL, plan_free);
  self->syscalls = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->requests = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  self->kernel_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->text = g_string_new (NULL);
  return self;
}

void
jvms_event_collect_free (JvmsEventCollect *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->plans);
  g_hash_table_unref (self->syscalls);
  g_hash_table_unref (self->requests);
  g_hash_table_unref (self->kernel_types);
  g_string_free (self->text, TRUE);
  g_free (self);
}

void
jvms_event_collect_set_stack_func (JvmsEventCollect *self, JvmsEventStackFunc func,
                                   gpointer user_data)
{
  self->stack_func = func;
  self->stack_data = user_data;
}

/* ------------------------------------------------------------------------------------------ */
/* Plans: how each field of a JFR event type is stored, decided once per type */

static JvmsEventUnit
unit_of (const JvmsJfrField *field)
{
  switch (jvms_jfr_field_get_unit (field))
    {
    case JVMS_JFR_UNIT_BYTES: return JVMS_EVENT_UNIT_BYTES;
    case JVMS_JFR_UNIT_BITS: return JVMS_EVENT_UNIT_BITS;
    case JVMS_JFR_UNIT_PERCENTAGE: return JVMS_EVENT_UNIT_PERCENT;
    case JVMS_JFR_UNIT_ADDRESS: return JVMS_EVENT_UNIT_ADDRESS;
    case JVMS_JFR_UNIT_FREQUENCY: return JVMS_EVENT_UNIT_HZ;
    default: return JVMS_EVENT_UNIT_NONE;
    }
}

static gboolean
is_simple (const JvmsJfrType *type)
{
  return jvms_jfr_type_is_simple (type) && jvms_jfr_type_get_n_fields (type) == 1;
}

static void plan_fields (JvmsEventCollect *self, guint32 store_type, const JvmsJfrType *type,
                         const char *prefix, const char *label_prefix, guint depth, guint nest,
                         GArray *out);

/* The entry of @field, named @name (with its prefix) in the store. @depth counts the objects
 * flattened above it, @nest every level (simple types too: a cycle of them ends). */
static Entry
plan_field (JvmsEventCollect *self, guint32 store_type, const JvmsJfrField *field,
            const char *name, const char *label, guint depth, guint nest)
{
  Entry e = { .field = field, .store_field = G_MAXUINT, .mode = MODE_STRING };
  const JvmsJfrType *ftype = jvms_jfr_field_get_type (field);
  JvmsEventUnit unit = JVMS_EVENT_UNIT_NONE;
  if (ftype == NULL)
    e.mode = MODE_ARRAY;
  else if (jvms_jfr_field_is_array (field))
    e.mode = MODE_ARRAY;
  else
    switch (jvms_jfr_type_get_kind (ftype))
      {
      case JVMS_JFR_KIND_BOOLEAN:
        e.mode = MODE_BOOLEAN;
        break;
      case JVMS_JFR_KIND_CHAR:
        e.mode = MODE_CHAR;
        break;
      case JVMS_JFR_KIND_BYTE:
      case JVMS_JFR_KIND_SHORT:
      case JVMS_JFR_KIND_INT:
      case JVMS_JFR_KIND_LONG:
        switch (jvms_jfr_field_get_unit (field))
          {
          case JVMS_JFR_UNIT_TIMESTAMP_TICKS:
          case JVMS_JFR_UNIT_TIMESTAMP_MS_EPOCH:
            e.mode = MODE_TIME;
            e.time_kind = JVMS_EVENT_VALUE_TIMESTAMP;
            break;
          case JVMS_JFR_UNIT_TIMESPAN_TICKS:
          case JVMS_JFR_UNIT_TIMESPAN_NS:
          case JVMS_JFR_UNIT_TIMESPAN_US:
          case JVMS_JFR_UNIT_TIMESPAN_MS:
          case JVMS_JFR_UNIT_TIMESPAN_S:
            e.mode = MODE_TIME;
            e.time_kind = JVMS_EVENT_VALUE_TIMESPAN;
            break;
          default:
            e.mode = MODE_INT;
            unit = unit_of (field);
            break;
          }
        break;
      case JVMS_JFR_KIND_FLOAT:
      case JVMS_JFR_KIND_DOUBLE:
        e.mode = MODE_FLOAT;
        unit = unit_of (field);
        break;
      case JVMS_JFR_KIND_STRING:
        e.mode = MODE_STRING;
        break;
      case JVMS_JFR_KIND_OBJECT:
      default:
        {
          const char *tn = jvms_jfr_type_get_name (ftype);
          if (strcmp (tn, "java.lang.Thread") == 0)
            e.mode = MODE_THREAD;
          else if (strcmp (tn, "java.lang.Class") == 0)
            e.mode = MODE_CLASS;
          else if (strcmp (tn, "jdk.types.Method") == 0)
            e.mode = MODE_METHOD;
          else if (strcmp (tn, "jdk.types.StackTrace") == 0)
            e.mode = MODE_STACK;
          else if (is_simple (ftype) && nest < MAX_NEST)
            {
              /* The wrapped value, under this field's own name. */
              e.mode = MODE_SIMPLE;
              e.children = entry_array ();
              Entry inner = plan_field (self, store_type, jvms_jfr_type_get_field (ftype, 0), name,
                                        label, depth, nest + 1);
              g_array_append_val (e.children, inner);
              return e;
            }
          else if (depth < MAX_DEPTH && nest < MAX_NEST)
            {
              e.mode = MODE_FLATTEN;
              e.children = entry_array ();
              plan_fields (self, store_type, ftype, name, label, depth + 1, nest + 1, e.children);
              return e;
            }
          else
            return (Entry) { .field = field, .mode = MODE_SKIP, .store_field = G_MAXUINT };
        }
      }
  e.store_field = jvms_event_writer_add_field (self->writer, store_type, name, label, unit);
  return e;
}

static void
plan_fields (JvmsEventCollect *self, guint32 store_type, const JvmsJfrType *type,
             const char *prefix, const char *label_prefix, guint depth, guint nest, GArray *out)
{
  guint n = jvms_jfr_type_get_n_fields (type);
  for (guint i = 0; i < n; i++)
    {
      const JvmsJfrField *f = jvms_jfr_type_get_field (type, i);
      const char *fname = jvms_jfr_field_get_name (f);
      const char *flabel = jvms_jfr_field_get_label (f);
      if (depth == 0 && (strcmp (fname, "startTime") == 0 || strcmp (fname, "duration") == 0
                         || strcmp (fname, "eventThread") == 0))
        {
          Entry skip = { .field = f, .mode = MODE_SKIP, .store_field = G_MAXUINT };
          g_array_append_val (out, skip);
          continue;
        }
      g_autofree char *name = prefix != NULL ? g_strconcat (prefix, ".", fname, NULL) : g_strdup (fname);
      g_autofree char *label = label_prefix != NULL && flabel != NULL
                                 ? g_strconcat (label_prefix, ": ", flabel, NULL)
                                 : g_strdup (flabel);
      Entry e = plan_field (self, store_type, f, name, label, depth, nest);
      g_array_append_val (out, e);
    }
}

static Plan *
plan_of (JvmsEventCollect *self, const JvmsJfrEvent *ev)
{
  const JvmsJfrType *type = jvms_jfr_event_get_type (ev);
  Plan *plan = g_hash_table_lookup (self->plans, type);
  if (plan != NULL)
    return plan;
  plan = g_new0 (Plan, 1);
  plan->entries = entry_array ();
  guint32 flags = JVMS_EVENT_TYPE_JFR;
  if (jvms_jfr_type_find_field (type, "duration") != NULL)
    flags |= JVMS_EVENT_TYPE_DURATION;
  plan->type = jvms_event_writer_add_type (self->writer, jvms_jfr_type_get_name (type),
                                           jvms_jfr_type_get_label (type), flags);
  plan->thread = jvms_jfr_type_find_field (type, "eventThread");
  if (plan->thread == NULL)
    plan->thread = jvms_jfr_type_find_field (type, "sampledThread");
  plan->n_fields = jvms_jfr_type_get_n_fields (type);
  plan->values = g_new0 (JvmsJfrValue, MAX (plan->n_fields, 1));
  if (plan->type != JVMS_EVENT_NONE)
    plan_fields (self, plan->type, type, NULL, NULL, 0, 0, plan->entries);
  g_hash_table_insert (self->plans, (gpointer) type, plan);
  return plan;
}

/* ------------------------------------------------------------------------------------------ */
/* Values */

static const char *
thread_name (const JvmsJfrThread *t)
{
  return t->java_name != NULL ? t->java_name : t->os_name;
}

static void
append_frame (GString *s, const JvmsJfrFrame *f)
{
  if (f->class_name != NULL && f->class_name[0] != '\0')
    g_string_append_printf (s, "%s.", f->class_name);
  g_string_append (s, f->method_name != NULL ? f->method_name : "?");
  if (f->line_number >= 0)
    g_string_append_printf (s, ":%d", f->line_number);
}

static void append_text (JvmsEventCollect *self, GString *s, const JvmsJfrValue *v, guint depth);

static void
append_object_text (JvmsEventCollect *self, GString *s, const JvmsJfrObject *o, guint depth)
{
  const JvmsJfrType *type = o->type;
  const JvmsJfrThread *th;
  const char *name;
  JvmsJfrValue tmp = { .kind = JVMS_JFR_VALUE_OBJECT, .type = type, .object = *o };
  if (jvms_jfr_value_get_thread (&tmp, &th))
    {
      g_string_append (s, thread_name (th) != NULL ? thread_name (th) : "?");
      return;
    }
  if (jvms_jfr_value_get_class_name (&tmp, &name))
    {
      g_string_append (s, name);
      return;
    }
  if (depth >= MAX_DEPTH)
    {
      g_string_append (s, "{…}");
      return;
    }
  g_string_append_c (s, '{');
  guint n = jvms_jfr_type_get_n_fields (type);
  for (guint i = 0; i < n && s->len < MAX_TEXT; i++)
    {
      const JvmsJfrField *f = jvms_jfr_type_get_field (type, i);
      JvmsJfrValue v;
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append_printf (s, "%s=", jvms_jfr_field_get_name (f));
      if (jvms_jfr_object_get_value (o, f, &v))
        append_text (self, s, &v, depth + 1);
      else
        g_string_append (s, "null");
    }
  g_string_append_c (s, '}');
}

/* A value as text: array elements, and objects too deep to flatten. */
static void
append_text (JvmsEventCollect *self, GString *s, const JvmsJfrValue *v, guint depth)
{
  switch (v->kind)
    {
    case JVMS_JFR_VALUE_NULL:
      g_string_append (s, "null");
      break;
    case JVMS_JFR_VALUE_BOOLEAN:
      g_string_append (s, v->b ? "true" : "false");
      break;
    case JVMS_JFR_VALUE_INTEGER:
      g_string_append_printf (s, "%" G_GINT64_FORMAT, v->i);
      break;
    case JVMS_JFR_VALUE_FLOAT:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append (s, g_ascii_dtostr (buf, sizeof buf, v->d));
        break;
      }
    case JVMS_JFR_VALUE_STRING:
      g_string_append (s, v->s);
      break;
    case JVMS_JFR_VALUE_OBJECT:
      append_object_text (self, s, &v->object, depth);
      break;
    case JVMS_JFR_VALUE_ARRAY:
      {
        JvmsJfrArrayIter iter;
        JvmsJfrValue el;
        guint k = 0;
        g_string_append_c (s, '[');
        jvms_jfr_array_iter_init (&iter, v);
        while (jvms_jfr_array_iter_next (&iter, &el))
          {
            if (k > 0)
              g_string_append (s, ", ");
            if (k++ >= MAX_ARRAY_SHOWN || s->len >= MAX_TEXT || depth >= MAX_DEPTH)
              {
                g_string_append (s, "…");
                break;
              }
            append_text (self, s, &el, depth + 1);
          }
        g_string_append_c (s, ']');
        break;
      }
    default:
      g_string_append (s, "?");
      break;
    }
}

/* Writes @v, the value of @e's field in @parent. */
static void
store_value (JvmsEventCollect *self, const Entry *e, const JvmsJfrObject *parent,
             const JvmsJfrValue *v)
{
  JvmsEventWriter *w = self->writer;
  if (e->mode == MODE_SKIP)
    return;
  if (e->mode == MODE_FLATTEN)
    {
      /* A null object leaves its members out. */
      if (v->kind != JVMS_JFR_VALUE_OBJECT)
        return;
      for (guint i = 0; i < e->children->len; i++)
        {
          const Entry *c = &g_array_index (e->children, Entry, i);
          JvmsJfrValue cv;
          if (!jvms_jfr_object_get_value (&v->object, c->field, &cv))
            cv.kind = JVMS_JFR_VALUE_NULL;
          store_value (self, c, &v->object, &cv);
        }
      return;
    }
  if (e->mode == MODE_SIMPLE)
    {
      const Entry *c = &g_array_index (e->children, Entry, 0);
      JvmsJfrValue cv;
      if (v->kind != JVMS_JFR_VALUE_OBJECT || !jvms_jfr_object_get_value (&v->object, c->field, &cv))
        cv.kind = JVMS_JFR_VALUE_NULL;
      store_value (self, c, v->kind == JVMS_JFR_VALUE_OBJECT ? &v->object : parent, &cv);
      return;
    }
  guint f = e->store_field;
  if (f == G_MAXUINT)
    return;
  if (v->kind == JVMS_JFR_VALUE_NULL)
    {
      jvms_event_writer_null (w, f);
      return;
    }
  switch (e->mode)
    {
    case MODE_BOOLEAN:
      if (v->kind == JVMS_JFR_VALUE_BOOLEAN)
        jvms_event_writer_boolean (w, f, v->b);
      else
        jvms_event_writer_null (w, f);
      return;
    case MODE_INT:
      if (v->kind == JVMS_JFR_VALUE_INTEGER)
        jvms_event_writer_int (w, f, JVMS_EVENT_VALUE_INT, v->i);
      else
        jvms_event_writer_null (w, f);
      return;
    case MODE_CHAR:
      {
        char utf8[8] = { 0 };
        gunichar c = (gunichar) v->u;
        if (v->kind == JVMS_JFR_VALUE_INTEGER && g_unichar_validate (c) && c != 0)
          g_unichar_to_utf8 (c, utf8);
        else if (v->kind == JVMS_JFR_VALUE_INTEGER)
          g_unichar_to_utf8 (0xFFFD, utf8);
        jvms_event_writer_string (w, f, v->kind == JVMS_JFR_VALUE_INTEGER ? utf8 : NULL);
        return;
      }
    case MODE_TIME:
      {
        gint64 ns;
        if (v->kind != JVMS_JFR_VALUE_INTEGER || v->i == G_MININT64)
          jvms_event_writer_null (w, f);
        else if (jvms_jfr_object_get_time_ns (parent, e->field, &ns))
          jvms_event_writer_int (w, f, e->time_kind, ns);
        else
          /* Beyond 2^63 ns (Long.MAX_VALUE ms, "no limit"): held at the end of the axis. */
          jvms_event_writer_int (w, f, e->time_kind, v->i > 0 ? G_MAXINT64 : G_MININT64 + 1);
        return;
      }
    case MODE_FLOAT:
      if (v->kind == JVMS_JFR_VALUE_FLOAT)
        jvms_event_writer_double (w, f, v->d);
      else
        jvms_event_writer_null (w, f);
      return;
    case MODE_THREAD:
      {
        const JvmsJfrThread *t;
        jvms_event_writer_string (w, f, jvms_jfr_value_get_thread (v, &t) ? thread_name (t) : NULL);
        return;
      }
    case MODE_CLASS:
      {
        const char *name;
        jvms_event_writer_string (w, f, jvms_jfr_value_get_class_name (v, &name) ? name : NULL);
        return;
      }
    case MODE_METHOD:
      {
        const char *cls = NULL, *name = NULL, *desc = NULL;
        if (!jvms_jfr_object_get_method (parent, e->field, &cls, &name, &desc) || name == NULL)
          {
            jvms_event_writer_null (w, f);
            return;
          }
        g_string_truncate (self->text, 0);
        if (cls != NULL && cls[0] != '\0')
          g_string_append_printf (self->text, "%s.", cls);
        g_string_append (self->text, name);
        jvms_event_writer_string (w, f, self->text->str);
        return;
      }
    case MODE_STACK:
      {
        const JvmsJfrStackTrace *st;
        if (!jvms_jfr_value_get_stack_trace (v, &st) || st->n_frames == 0)
          {
            jvms_event_writer_null (w, f);
            return;
          }
        g_string_truncate (self->text, 0);
        append_frame (self->text, &st->frames[0]);
        jvms_event_writer_string (w, f, self->text->str);
        return;
      }
    case MODE_STRING:
      if (v->kind == JVMS_JFR_VALUE_STRING)
        {
          jvms_event_writer_string (w, f, v->s);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case MODE_ARRAY:
    default:
      g_string_truncate (self->text, 0);
      append_text (self, self->text, v, 0);
      jvms_event_writer_string (w, f, self->text->str);
      return;
    }
}

void
jvms_event_collect_jfr (JvmsEventCollect *self, const JvmsJfrEvent *ev)
{
  Plan *plan = plan_of (self, ev);
  if (plan->type == JVMS_EVENT_NONE)
    return;
  JvmsJfrObject object;
  jvms_jfr_event_get_object (ev, &object);
  gint64 tid = 0;
  const JvmsJfrThread *t;
  if (plan->thread != NULL && jvms_jfr_event_get_thread_field (ev, plan->thread, &t))
    tid = jvms_threads_tid_of_jfr (t);
  /* The values first: the sample store takes the event's keys from them (the stack's, and the
   * thread's and class's its sample wants next), where reading each again cost a call into the
   * reader and a varint. */
  guint n = jvms_jfr_event_get_values (ev, plan->values, plan->n_fields);
  guint32 stack = self->stack_func != NULL ? self->stack_func (ev, plan->values, n, self->stack_data)
                                           : JVMS_EVENT_NONE;
  jvms_event_writer_begin (self->writer, jvms_jfr_event_get_start_ns (ev),
                           MAX (jvms_jfr_event_get_duration_ns (ev), 0), plan->type, tid, stack);
  for (guint i = 0; i < plan->entries->len; i++)
    {
      const Entry *e = &g_array_index (plan->entries, Entry, i);
      JvmsJfrValue damaged = { .kind = JVMS_JFR_VALUE_NULL };
      /* Fields after damage are nulls; every field gets a value. */
      store_value (self, e, &object, i < n ? &plan->values[i] : &damaged);
    }
  jvms_event_writer_commit (self->writer);
}

/* ------------------------------------------------------------------------------------------ */
/* Kernel */

static guint32
kernel_type (JvmsEventCollect *self, const char *name, guint32 flags)
{
  gpointer found = g_hash_table_lookup (self->kernel_types, name);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  guint32 t = jvms_event_writer_add_type (self->writer, name, NULL, JVMS_EVENT_TYPE_KERNEL | flags);
  g_hash_table_insert (self->kernel_types, g_strdup (name), GUINT_TO_POINTER (t + 1));
  return t;
}

static guint
kfield (JvmsEventCollect *self, guint32 type, const char *name, JvmsEventUnit unit)
{
  return jvms_event_writer_add_field (self->writer, type, name, NULL, unit);
}

static gint64
ktid (const JvmsKernelEvent *ev)
{
  return ev->tid > 0 ? ev->tid : 0;
}

static void
close_syscall (JvmsEventCollect *self, gint64 tid, gint64 end, gboolean known, gint64 ret)
{
  OpenSyscall *open = g_hash_table_lookup (self->syscalls, &tid);
  if (open == NULL)
    return;
  jvms_event_writer_end_row (self->writer, open->row,
                             known ? MAX (end - open->start, 0) : JVMS_EVENT_DURATION_UNKNOWN,
                             known, ret);
  g_hash_table_remove (self->syscalls, &tid);
}

static void
on_syscall (JvmsEventCollect *self, const JvmsKernelEvent *ev, gint64 t)
{
  gint64 tid = ktid (ev);
  if (ev->type == JVMS_KERNEL_EVENT_SYSCALL_EXIT)
    {
      close_syscall (self, tid, t, TRUE, ev->syscall.ret);
      return;
    }
  /* An entry while one is open: its exit was not recorded. */
  close_syscall (self, tid, t, FALSE, 0);
  char name[96];
  if (ev->syscall.sys != NULL)
    g_snprintf (name, sizeof name, "syscall:%s", ev->syscall.sys);
  else
    g_snprintf (name, sizeof name, "syscall:%" G_GINT64_FORMAT, ev->syscall.id);
  guint32 type = kernel_type (self, name, JVMS_EVENT_TYPE_DURATION | JVMS_EVENT_TYPE_SYSCALL);
  if (type == JVMS_EVENT_NONE)
    return;
  guint f_ret = kfield (self, type, "ret", JVMS_EVENT_UNIT_NONE);
  guint f_cpu = kfield (self, type, "cpu", JVMS_EVENT_UNIT_NONE);
  jvms_event_writer_begin (self->writer, t, JVMS_EVENT_WRITER_PENDING, type, tid, JVMS_EVENT_NONE);
  jvms_event_writer_result (self->writer, f_ret);
  jvms_event_writer_int (self->writer, f_cpu, JVMS_EVENT_VALUE_INT, ev->cpu);
  OpenSyscall *open = g_new (OpenSyscall, 1);
  open->row = jvms_event_writer_commit (self->writer);
  open->start = t;
  gint64 *key = g_new (gint64, 1);
  *key = tid;
  g_hash_table_replace (self->syscalls, key, open);
}

static void
close_request (JvmsEventCollect *self, OpenRequest *r, gint64 end, gboolean known)
{
  gboolean issued = r->issue != G_MININT64;
  jvms_event_writer_end_row (self->writer, r->row,
                             known ? MAX (end - r->start, 0) : JVMS_EVENT_DURATION_UNKNOWN,
                             issued, issued ? r->issue - r->start : 0);
  g_hash_table_remove (self->requests, &r->key);
}

static void
close_oldest_request (JvmsEventCollect *self)
{
  GHashTableIter it;
  gpointer value;
  OpenRequest *oldest = NULL;
  g_hash_table_iter_init (&it, self->requests);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (oldest == NULL || ((OpenRequest *) value)->seq < oldest->seq)
      oldest = value;
  if (oldest != NULL)
    close_request (self, oldest, 0, FALSE);
}

static void
on_block (JvmsEventCollect *self, const JvmsKernelEvent *ev, gint64 t)
{
  guint64 key = ((guint64) ev->block.dev << 44) ^ ev->block.sector;
  OpenRequest *r = g_hash_table_lookup (self->requests, &key);
  if (ev->type == JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE)
    {
      if (r != NULL)
        close_request (self, r, t, TRUE);
      return;
    }
  if (ev->type == JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE && r != NULL)
    {
      if (r->issue == G_MININT64)
        r->issue = t;
      return;
    }
  /* A new request: inserted, or issued without an insertion (a device without a queue). */
  if (r != NULL)
    close_request (self, r, 0, FALSE);
  if (g_hash_table_size (self->requests) >= MAX_OPEN_REQUESTS)
    close_oldest_request (self);
  guint32 type = kernel_type (self, "block:request", JVMS_EVENT_TYPE_DURATION);
  if (type == JVMS_EVENT_NONE)
    return;
  JvmsEventWriter *w = self->writer;
  guint f_queued = kfield (self, type, "queued_ns", JVMS_EVENT_UNIT_NONE);
  guint f_dev = kfield (self, type, "device", JVMS_EVENT_UNIT_NONE);
  guint f_sector = kfield (self, type, "sector", JVMS_EVENT_UNIT_NONE);
  guint f_bytes = kfield (self, type, "bytes", JVMS_EVENT_UNIT_BYTES);
  guint f_rwbs = kfield (self, type, "rwbs", JVMS_EVENT_UNIT_NONE);
  guint f_cpu = kfield (self, type, "cpu", JVMS_EVENT_UNIT_NONE);
  char dev[32];
  g_snprintf (dev, sizeof dev, "%u:%u", ev->block.dev >> 20, ev->block.dev & 0xFFFFF);
  char rwbs[sizeof ev->block.rwbs + 1] = { 0 };
  memcpy (rwbs, ev->block.rwbs, sizeof ev->block.rwbs);
  jvms_event_writer_begin (w, t, JVMS_EVENT_WRITER_PENDING, type, ktid (ev), JVMS_EVENT_NONE);
  jvms_event_writer_result (w, f_queued);
  jvms_event_writer_string (w, f_dev, dev);
  jvms_event_writer_int (w, f_sector, JVMS_EVENT_VALUE_INT, (gint64) MIN (ev->block.sector, (guint64) G_MAXINT64));
  jvms_event_writer_int (w, f_bytes, JVMS_EVENT_VALUE_INT, (gint64) ev->block.nr_sector * 512);
  jvms_event_writer_string (w, f_rwbs, g_utf8_validate (rwbs, -1, NULL) ? rwbs : "?");
  jvms_event_writer_int (w, f_cpu, JVMS_EVENT_VALUE_INT, ev->cpu);
  r = g_new0 (OpenRequest, 1);
  r->key = key;
  r->row = jvms_event_writer_commit (w);
  r->start = t;
  r->issue = ev->type == JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE ? t : G_MININT64;
  r->seq = self->request_seq++;
  g_hash_table_insert (self->requests, &r->key, r);
}

static void
comm_value (JvmsEventWriter *w, guint field, const char *comm)
{
  char buf[JVMS_KERNEL_COMM_LEN + 1] = { 0 };
  memcpy (buf, comm, JVMS_KERNEL_COMM_LEN);
  jvms_event_writer_string (w, field, g_utf8_validate (buf, -1, NULL) ? buf : "?");
}

static void
on_process (JvmsEventCollect *self, const JvmsKernelEvent *ev, gint64 t)
{
  JvmsEventWriter *w = self->writer;
  const char *name = ev->type == JVMS_KERNEL_EVENT_PROCESS_FORK ? "process:fork"
                     : ev->type == JVMS_KERNEL_EVENT_PROCESS_EXEC ? "process:exec" : "process:exit";
  guint32 type = kernel_type (self, name, 0);
  if (type == JVMS_EVENT_NONE)
    return;
  if (ev->type == JVMS_KERNEL_EVENT_PROCESS_FORK)
    {
      guint f_ppid = kfield (self, type, "parent_pid", 0), f_ptid = kfield (self, type, "parent_tid", 0);
      guint f_cpid = kfield (self, type, "child_pid", 0), f_ctid = kfield (self, type, "child_tid", 0);
      guint f_comm = kfield (self, type, "child_comm", 0);
      gint64 tid = ev->tid > 0 ? ev->tid : MAX (ev->fork.parent_tid, 0);
      jvms_event_writer_begin (w, t, 0, type, tid, JVMS_EVENT_NONE);
      jvms_event_writer_int (w, f_ppid, JVMS_EVENT_VALUE_INT, ev->fork.parent_pid);
      jvms_event_writer_int (w, f_ptid, JVMS_EVENT_VALUE_INT, ev->fork.parent_tid);
      jvms_event_writer_int (w, f_cpid, JVMS_EVENT_VALUE_INT, ev->fork.child_pid);
      jvms_event_writer_int (w, f_ctid, JVMS_EVENT_VALUE_INT, ev->fork.child_tid);
      comm_value (w, f_comm, ev->fork.child_comm);
    }
  else
    {
      guint f_pid = kfield (self, type, "pid", 0), f_comm = kfield (self, type, "comm", 0);
      gint64 tid = ev->task.tid > 0 ? ev->task.tid : ktid (ev);
      jvms_event_writer_begin (w, t, 0, type, tid, JVMS_EVENT_NONE);
      jvms_event_writer_int (w, f_pid, JVMS_EVENT_VALUE_INT, ev->task.pid);
      comm_value (w, f_comm, ev->task.comm);
      if (ev->type == JVMS_KERNEL_EVENT_PROCESS_EXEC)
        {
          guint f_file = kfield (self, type, "filename", 0);
          const char *file = ev->task.filename;
          jvms_event_writer_string (w, f_file, file != NULL && g_utf8_validate (file, -1, NULL) ? file : NULL);
        }
    }
  jvms_event_writer_commit (w);
}

static void
on_lost (JvmsEventCollect *self, const JvmsKernelEvent *ev, gint64 t)
{
  guint32 type = kernel_type (self, "kernel:lost", 0);
  if (type == JVMS_EVENT_NONE)
    return;
  guint f_lost = kfield (self, type, "lost", 0), f_cpu = kfield (self, type, "cpu", 0);
  jvms_event_writer_begin (self->writer, t, 0, type, 0, JVMS_EVENT_NONE);
  jvms_event_writer_int (self->writer, f_lost, JVMS_EVENT_VALUE_INT, (gint64) MIN (ev->lost.lost, (guint64) G_MAXINT64));
  jvms_event_writer_int (self->writer, f_cpu, JVMS_EVENT_VALUE_INT, ev->cpu);
  jvms_event_writer_commit (self->writer);
}

void
jvms_event_collect_kernel (JvmsEventCollect *self, const JvmsKernelEvent *ev, gint64 offset)
{
  if (ev->time == 0)
    return;
  gint64 t;
  if (__builtin_add_overflow (ev->time, offset, &t))
    t = offset > 0 ? G_MAXINT64 : G_MININT64;
  switch (ev->type)
    {
    case JVMS_KERNEL_EVENT_SYSCALL_ENTER:
    case JVMS_KERNEL_EVENT_SYSCALL_EXIT:
      on_syscall (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE:
      on_block (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_PROCESS_FORK:
    case JVMS_KERNEL_EVENT_PROCESS_EXEC:
    case JVMS_KERNEL_EVENT_PROCESS_EXIT:
      /* perf's own FORK/EXIT records repeat the sched_process_* tracepoints. */
      if (ev->name == NULL || !g_str_has_prefix (ev->name, "PERF_RECORD_"))
        on_process (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_LOST:
      on_lost (self, ev, t);
      break;
    default:
      break;
    }
}

void
jvms_event_collect_finish (JvmsEventCollect *self)
{
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, self->syscalls);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      OpenSyscall *open = value;
      jvms_event_writer_end_row (self->writer, open->row, JVMS_EVENT_DURATION_UNKNOWN, FALSE, 0);
    }
  g_hash_table_remove_all (self->syscalls);
  g_hash_table_iter_init (&it, self->requests);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      OpenRequest *r = value;
      gboolean issued = r->issue != G_MININT64;
      jvms_event_writer_end_row (self->writer, r->row, JVMS_EVENT_DURATION_UNKNOWN, issued,
                                 issued ? r->issue - r->start : 0);
    }
  g_hash_table_remove_all (self->requests);
}
