/* history-model.h: a naive in-memory model of a history, the oracle of the tests. It keeps
 * every interval of every attribute in arrays and answers queries by linear scans. */
#pragma once

#include "jvms-history.h"
#include <math.h>
#include <string.h>

typedef struct
{
  gint64  start, end;
  guint8  type;
  gint64  i;
  double  d;
  char   *s;
} ModelIv;

typedef struct
{
  GArray *ivs;    /* ModelIv, ended */
  ModelIv cur;    /* current, end unused */
} ModelAttr;

typedef struct
{
  gint64     start_time;
  gint64     end_time;  /* close time, or latest end while open */
  gboolean   closed;
  GPtrArray *attrs;     /* ModelAttr* by id */
} Model;

static inline gboolean
model_value_eq (const ModelIv *a, guint8 type, gint64 i, double d, const char *s)
{
  if (a->type != type)
    return FALSE;
  switch (type)
    {
    case JVMS_VALUE_INT:
      return a->i == i;
    case JVMS_VALUE_DOUBLE:
      return memcmp (&a->d, &d, 8) == 0;
    case JVMS_VALUE_STRING:
      return strcmp (a->s, s) == 0;
    default:
      return TRUE;
    }
}

static inline void
model_attr_free (gpointer p)
{
  ModelAttr *m = p;
  g_array_unref (m->ivs);
  g_free (m);
}

static inline Model *
model_new (gint64 start)
{
  Model *m = g_new0 (Model, 1);
  m->start_time = start;
  m->end_time = start;
  m->attrs = g_ptr_array_new_with_free_func (model_attr_free);
  return m;
}

static inline void
model_free (Model *m)
{
  g_ptr_array_unref (m->attrs);
  g_free (m);
}

static inline void
model_add_attr (Model *m)
{
  ModelAttr *a = g_new0 (ModelAttr, 1);
  a->ivs = g_array_new (FALSE, FALSE, sizeof (ModelIv));
  a->cur.start = m->start_time;
  a->cur.type = JVMS_VALUE_NULL;
  g_ptr_array_add (m->attrs, a);
}

/* Mirrors jvms_history_builder_modify: returns FALSE on a time before the current start. */
static inline gboolean
model_modify (Model *m, guint attr, gint64 t, guint8 type, gint64 i, double d, const char *s)
{
  ModelAttr *a = m->attrs->pdata[attr];
  if (t < a->cur.start)
    return FALSE;
  if (model_value_eq (&a->cur, type, i, d, s))
    return TRUE;
  if (t > a->cur.start)
    {
      ModelIv done = a->cur;
      done.end = t;
      g_array_append_val (a->ivs, done);
      if (t > m->end_time)
        m->end_time = t;
      a->cur.start = t;
    }
  a->cur.type = type;
  a->cur.i = i;
  a->cur.d = d;
  a->cur.s = (char *) s; /* strings come from a pool that outlives the model */
  return TRUE;
}

static inline void
model_close (Model *m, gint64 t)
{
  for (guint k = 0; k < m->attrs->len; k++)
    {
      ModelAttr *a = m->attrs->pdata[k];
      if (t > a->cur.start)
        {
          ModelIv done = a->cur;
          done.end = t;
          g_array_append_val (a->ivs, done);
          a->cur.start = t;
        }
    }
  m->end_time = t;
  m->closed = TRUE;
}

static inline gboolean
model_iv_matches (const ModelIv *e, const JvmsInterval *got)
{
  if (e->start != got->start || e->end != got->end || e->type != got->value.type)
    return FALSE;
  switch (e->type)
    {
    case JVMS_VALUE_INT:
      return e->i == got->value.i;
    case JVMS_VALUE_DOUBLE:
      return memcmp (&e->d, &got->value.d, 8) == 0;
    case JVMS_VALUE_STRING:
      return g_strcmp0 (e->s, got->value.s) == 0;
    default:
      return TRUE;
    }
}
