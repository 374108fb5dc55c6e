/* jfr-value.c: decoding field values, resolving constant-pool references, and the decoded
 * forms of threads, classes, methods and stack traces cached per constant. */
#include <string.h>

#include "jfr-chunk.h"
#include "jfr-string.h"

typedef struct
{
  const char *class_name;
  const char *name;
  const char *descriptor;
  gint32      modifiers;
  gboolean    hidden;
} JfrMethod;

static gboolean read_one (JfrLoaded *loaded, JfrIn *in, guint op, const JvmsJfrType *type,
                          JvmsJfrValue *out, guint depth);
static const char *entry_string (JfrLoaded *loaded, const JvmsJfrType *type,
                                 JfrPoolEntry *entry, guint depth);

static void
value_null (JvmsJfrValue *out, const JvmsJfrType *type)
{
  memset (out, 0, sizeof *out);
  out->kind = JVMS_JFR_VALUE_NULL;
  out->type = type;
}

/* Places @in at @field of @object. */
static gboolean
seek_field (const JvmsJfrObject *object, const JvmsJfrField *field, JfrIn *in)
{
  JfrLoaded *loaded = object->priv_chunk;
  if (loaded == NULL || field == NULL || field->index >= object->type->n_fields
      || &object->type->fields[field->index] != field)
    return FALSE;
  if (object->priv_offsets != NULL)
    {
      guint32 off = object->priv_offsets[field->index];
      if (off == G_MAXUINT32)
        return FALSE;
      jfr_in_init (in, object->priv_data + off, object->priv_end, loaded->compressed);
      return TRUE;
    }
  jfr_in_init (in, object->priv_data, object->priv_end, loaded->compressed);
  return jfr_skip_fields (in, object->type, field->index);
}

static JfrPoolEntry *
lookup (JfrLoaded *loaded, const JvmsJfrType *type, guint64 key)
{
  if (loaded->memo_type == type && loaded->memo_key == key)
    return loaded->memo_entry;
  JfrPoolEntry *entry = (JfrPoolEntry *) jfr_pool_lookup (loaded, type, key);
  if (entry == NULL)
    {
      if (key != 0)
        loaded->unresolved++;
      return NULL;
    }
  loaded->memo_type = type;
  loaded->memo_key = key;
  loaded->memo_entry = entry;
  return entry;
}

static void
entry_object (JfrLoaded *loaded, const JvmsJfrType *type, const JfrPoolEntry *entry,
              JvmsJfrObject *out)
{
  out->type = type;
  out->priv_chunk = loaded;
  out->priv_data = loaded->base + entry->offset;
  out->priv_end = loaded->end;
  out->priv_offsets = NULL;
  out->priv_entry = (gpointer) entry;
}

/* A string value at @in (any encoding); NULL for null. @depth stops pool references that
 * lead to further references. */
static const char *
read_string (JfrLoaded *loaded, JfrIn *in, const JvmsJfrType *string_type, gboolean cache,
             guint depth, gboolean *ok)
{
  JfrArena *arena = cache ? loaded->arena : loaded->event_arena;
  /* Most inline strings are short ASCII (host names, phase names): copied straight into the
   * arena, without the scratch buffer and the UTF-8 checks the general path needs. That
   * covers the char arrays the JDK's event writer makes of every String too: in compressed
   * chunks each char is a varint, one byte for ASCII. */
  if (G_LIKELY (in->p < in->end
                && (*in->p == JFR_STRING_UTF8 || *in->p == JFR_STRING_LATIN1
                    || (*in->p == JFR_STRING_UTF16 && in->compressed))))
    {
      JfrIn at = *in;
      jfr_in_u8 (&at);
      guint64 n = jfr_in_int (&at, 4);
      if (!at.bad && n <= jfr_in_left (&at))
        {
          guint64 i = 0;
          while (i < n && (guint8) (at.p[i] - 1) < 0x7f)
            i++;
          if (i == n)
            {
              *ok = TRUE;
              in->p = at.p + n;
              return jfr_arena_strdup (arena, (const char *) at.p, (gsize) n);
            }
        }
    }
  guint64 key = 0;
  g_string_truncate (loaded->scratch, 0);
  int encoding = jfr_string_read (in, loaded->scratch, &key);
  *ok = encoding >= 0;
  switch (encoding)
    {
    case JFR_STRING_NULL:
      return NULL;
    case JFR_STRING_EMPTY:
      return "";
    case JFR_STRING_POOL:
      {
        if (depth > 2)
          return NULL;
        JfrPoolEntry *entry = lookup (loaded, string_type, key);
        return entry ? entry_string (loaded, string_type, entry, depth + 1) : NULL;
      }
    case JFR_STRING_UTF8:
    case JFR_STRING_UTF16:
    case JFR_STRING_LATIN1:
      return jfr_arena_strdup (arena, loaded->scratch->str, loaded->scratch->len);
    default:
      return NULL;
    }
}

/* The string a constant stands for: a java.lang.String constant, or a simple type wrapping
 * one (Symbol, GCName…). Cached with the constant. */
static const char *
entry_string (JfrLoaded *loaded, const JvmsJfrType *type, JfrPoolEntry *entry, guint depth)
{
  if (entry->cache != NULL)
    return entry->cache;
  JfrIn in;
  jfr_in_init (&in, loaded->base + entry->offset, loaded->end, loaded->compressed);
  const JvmsJfrType *string_type = type;
  if (type->kind != JVMS_JFR_KIND_STRING)
    {
      if (type->string_field == NULL)
        return NULL;
      string_type = type->string_field->type;
    }
  gboolean ok;
  const char *s = read_string (loaded, &in, string_type, TRUE, depth, &ok);
  if (s != NULL && s[0] == '\0')
    s = "";
  entry->cache = (gpointer) s;
  return s;
}

/* Fills the members every value has; the union member is set by the caller. */
static inline void
value_init (JvmsJfrValue *out, JvmsJfrValueKind kind, const JvmsJfrType *type)
{
  out->kind = kind;
  out->type = type;
  out->from_pool = FALSE;
  out->pool_key = 0;
}

static inline void
value_integer (JvmsJfrValue *out, const JvmsJfrType *type, guint64 u, gint64 i)
{
  value_init (out, JVMS_JFR_VALUE_INTEGER, type);
  out->u = u;
  out->i = i;
}

/* A constant-pool reference of @type: the key at @in, resolved in the event's chunk. */
static gboolean
read_pool (JfrLoaded *loaded, JfrIn *in, const JvmsJfrType *type, JvmsJfrValue *out,
           guint depth)
{
  guint64 key = jfr_in_long (in);
  if (G_UNLIKELY (in->bad))
    {
      value_null (out, type);
      return FALSE;
    }
  JfrPoolEntry *entry = lookup (loaded, type, key);
  if (entry == NULL || (type->kind == JVMS_JFR_KIND_STRING
                        && entry_string (loaded, type, entry, 0) == NULL))
    value_null (out, type);
  else if (type->kind == JVMS_JFR_KIND_STRING)
    {
      value_init (out, JVMS_JFR_VALUE_STRING, type);
      out->s = entry->cache;
    }
  else if (type->kind == JVMS_JFR_KIND_OBJECT)
    {
      value_init (out, JVMS_JFR_VALUE_OBJECT, type);
      entry_object (loaded, type, entry, &out->object);
    }
  else if (depth > 1)
    value_null (out, type);
  else
    {
      /* a pool of primitives: decode the value where the constant is */
      JfrIn at;
      jfr_in_init (&at, loaded->base + entry->offset, loaded->end, loaded->compressed);
      if (!read_one (loaded, &at, type->kind, type, out, depth + 1))
        {
          out->from_pool = TRUE;
          out->pool_key = key;
          return FALSE;
        }
    }
  out->from_pool = TRUE;
  out->pool_key = key;
  return TRUE;
}

/* One value laid out as @op says (anything but an array) of @type. */
static gboolean
read_one (JfrLoaded *loaded, JfrIn *in, guint op, const JvmsJfrType *type, JvmsJfrValue *out,
          guint depth)
{
  jfr_work++;
  switch (op)
    {
    case JFR_OP_POOL:
      return read_pool (loaded, in, type, out, depth);
    case JFR_OP_BOOLEAN:
      value_init (out, JVMS_JFR_VALUE_BOOLEAN, type);
      out->b = jfr_in_u8 (in) != 0;
      break;
    case JFR_OP_BYTE:
      {
        guint8 u = jfr_in_u8 (in);
        value_integer (out, type, u, (gint8) u);
        break;
      }
    case JFR_OP_SHORT:
      {
        guint16 u = (guint16) jfr_in_int (in, 2);
        value_integer (out, type, u, (gint16) u);
        break;
      }
    case JFR_OP_CHAR:
      {
        guint16 u = (guint16) jfr_in_int (in, 2);
        value_integer (out, type, u, u);
        break;
      }
    case JFR_OP_INT:
      {
        guint32 u = (guint32) jfr_in_int (in, 4);
        value_integer (out, type, u, (gint32) u);
        break;
      }
    case JFR_OP_LONG:
      {
        guint64 u = jfr_in_int (in, 8);
        value_integer (out, type, u, (gint64) u);
        break;
      }
    case JFR_OP_FLOAT:
      {
        guint32 bits = (guint32) jfr_in_be (in, 4);
        float f;
        memcpy (&f, &bits, sizeof f);
        value_init (out, JVMS_JFR_VALUE_FLOAT, type);
        out->d = f;
        break;
      }
    case JFR_OP_DOUBLE:
      {
        guint64 bits = jfr_in_be (in, 8);
        value_init (out, JVMS_JFR_VALUE_FLOAT, type);
        memcpy (&out->d, &bits, sizeof out->d);
        break;
      }
    case JFR_OP_STRING:
      {
        gboolean ok;
        const guint8 *at = in->p;
        const char *s = read_string (loaded, in, type, FALSE, 0, &ok);
        if (!ok)
          {
            value_null (out, type);
            return FALSE;
          }
        value_init (out, s != NULL ? JVMS_JFR_VALUE_STRING : JVMS_JFR_VALUE_NULL, type);
        out->s = s;
        if (*at == JFR_STRING_POOL)
          {
            out->from_pool = TRUE;
            JfrIn again;
            jfr_in_init (&again, at + 1, in->end, loaded->compressed);
            out->pool_key = jfr_in_long (&again);
          }
        return TRUE;
      }
    case JFR_OP_OBJECT:
    default:
      value_init (out, JVMS_JFR_VALUE_OBJECT, type);
      out->object.type = type;
      out->object.priv_chunk = loaded;
      out->object.priv_data = in->p;
      out->object.priv_end = in->end;
      out->object.priv_offsets = NULL;
      out->object.priv_entry = NULL;
      jfr_skip_fields (in, type, type->n_fields);
      break;
    }
  if (G_UNLIKELY (in->bad))
    {
      value_null (out, type);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_array (JfrLoaded *loaded, JfrIn *in, const JvmsJfrType *type, gboolean cp,
            JvmsJfrValue *out)
{
  value_null (out, type);
  guint64 n = jfr_in_int (in, 4);
  if (in->bad || n > jfr_in_left (in))
    return FALSE;
  const guint8 *first = in->p;
  for (guint64 i = 0; i < n; i++)
    {
      JfrIn tmp = *in;
      if (!jfr_skip_value (&tmp, type, FALSE, cp))
        return FALSE;
      *in = tmp;
    }
  out->kind = JVMS_JFR_VALUE_ARRAY;
  out->array.length = n;
  out->array.priv_chunk = loaded;
  out->array.priv_data = first;
  out->array.priv_end = in->p;
  out->array.priv_cp = cp;
  return TRUE;
}

gboolean
jvms_jfr_object_get_value (const JvmsJfrObject *object, const JvmsJfrField *field,
                           JvmsJfrValue *out)
{
  g_return_val_if_fail (object != NULL && out != NULL, FALSE);
  JfrIn in;
  if (!seek_field (object, field, &in))
    {
      value_null (out, field ? field->type : NULL);
      return FALSE;
    }
  if (field->op == JFR_OP_ARRAY)
    return read_array (object->priv_chunk, &in, field->type, field->constant_pool, out);
  return read_one (object->priv_chunk, &in, field->op, field->type, out, 0);
}

guint
jvms_jfr_event_get_values (const JvmsJfrEvent *event, JvmsJfrValue *values, guint n_values)
{
  g_return_val_if_fail (event != NULL && (values != NULL || n_values == 0), 0);
  JvmsJfrEvent *e = (JvmsJfrEvent *) event;
  const JvmsJfrType *type = e->type;
  JfrLoaded *loaded = e->loaded;
  guint n = MIN (n_values, type->n_fields);
  /* the offsets come for free on the way: later per-field reads need no offset pass */
  gboolean fill = e->offsets_state == 0 && n == type->n_fields;
  JfrIn in;
  jfr_in_init (&in, e->payload, e->end, loaded->compressed);
  guint i = 0;
  for (; i < n; i++)
    {
      const JvmsJfrField *f = &type->fields[i];
      if (fill)
        e->offsets[i] = (guint32) (in.p - e->payload);
      gboolean ok = f->op == JFR_OP_ARRAY
                    ? read_array (loaded, &in, f->type, f->constant_pool, &values[i])
                    : read_one (loaded, &in, f->op, f->type, &values[i], 0);
      if (!ok)
        break;
    }
  guint good = i;
  for (guint k = good; k < n; k++)
    {
      value_null (&values[k], type->fields[k].type);
      /* the damaged field starts where it starts; nothing after it can be found */
      if (fill && k > good)
        e->offsets[k] = G_MAXUINT32;
    }
  if (fill)
    e->offsets_state = 1;
  return good;
}

void
jvms_jfr_array_iter_init (JvmsJfrArrayIter *iter, const JvmsJfrValue *array)
{
  memset (iter, 0, sizeof *iter);
  if (array == NULL || array->kind != JVMS_JFR_VALUE_ARRAY)
    return;
  iter->priv_array = *array;
  iter->priv_pos = array->array.priv_data;
}

gboolean
jvms_jfr_array_iter_next (JvmsJfrArrayIter *iter, JvmsJfrValue *element)
{
  const JvmsJfrValue *a = &iter->priv_array;
  if (a->kind != JVMS_JFR_VALUE_ARRAY || iter->priv_index >= a->array.length)
    return FALSE;
  JfrLoaded *loaded = a->array.priv_chunk;
  JfrIn in;
  jfr_in_init (&in, iter->priv_pos, a->array.priv_end, loaded->compressed);
  if (!read_one (loaded, &in, a->array.priv_cp ? JFR_OP_POOL : a->type->kind, a->type, element, 0))
    {
      iter->priv_index = a->array.length;
      return FALSE;
    }
  iter->priv_pos = in.p;
  iter->priv_index++;
  return TRUE;
}

/* ---- names in Java source form ---- */

static const char *
primitive_descriptor (char c)
{
  switch (c)
    {
    case 'Z': return "boolean";
    case 'B': return "byte";
    case 'C': return "char";
    case 'S': return "short";
    case 'I': return "int";
    case 'J': return "long";
    case 'F': return "float";
    case 'D': return "double";
    case 'V': return "void";
    default: return NULL;
    }
}

/* "java/lang/String" → "java.lang.String", "[J" → "long[]", "[Ljava/lang/Object;" →
 * "java.lang.Object[]". */
static char *
java_class_name (JfrArena *arena, const char *internal)
{
  guint dims = 0;
  const char *p = internal;
  while (*p == '[')
    {
      dims++;
      p++;
    }
  g_autoptr(GString) s = g_string_new (NULL);
  if (dims > 0)
    {
      const char *prim = p[1] == '\0' ? primitive_descriptor (*p) : NULL;
      if (prim != NULL)
        g_string_append (s, prim);
      else if (*p == 'L')
        {
          gsize len = strlen (p + 1);
          if (len > 0 && p[len] == ';')
            len--;
          g_string_append_len (s, p + 1, (gssize) len);
        }
      else
        g_string_append (s, p);
    }
  else
    g_string_append (s, p);
  for (gsize i = 0; i < s->len; i++)
    if (s->str[i] == '/')
      s->str[i] = '.';
  for (guint i = 0; i < dims; i++)
    g_string_append (s, "[]");
  return jfr_arena_strdup (arena, s->str, s->len);
}

/* ---- decoded constants ---- */

static const char *
object_string (const JvmsJfrObject *object, const char *field_name)
{
  const JvmsJfrField *f = jvms_jfr_type_find_field (object->type, field_name);
  const char *s = NULL;
  if (f != NULL && jvms_jfr_object_get_string (object, f, &s))
    return s;
  return NULL;
}

static gint64
object_int (const JvmsJfrObject *object, const char *field_name, gint64 fallback)
{
  const JvmsJfrField *f = jvms_jfr_type_find_field (object->type, field_name);
  gint64 v;
  if (f != NULL && jvms_jfr_object_get_int64 (object, f, &v))
    return v;
  return fallback;
}

/* Decoded constants outlive the event that first needed them: copy their strings out of the
 * event arena. */
static const char *
persist (JfrLoaded *loaded, const char *s)
{
  return s ? jfr_arena_strdup (loaded->arena, s, strlen (s)) : NULL;
}

static const char *
class_entry_name (JfrLoaded *loaded, const JvmsJfrType *type, JfrPoolEntry *entry)
{
  if (entry->cache != NULL)
    return entry->cache;
  JvmsJfrObject object;
  entry_object (loaded, type, entry, &object);
  const char *internal = object_string (&object, "name");
  if (internal == NULL)
    return NULL;
  entry->cache = java_class_name (loaded->arena, internal);
  return entry->cache;
}

static const JfrMethod *
method_entry (JfrLoaded *loaded, const JvmsJfrType *type, JfrPoolEntry *entry)
{
  if (entry->cache != NULL)
    return entry->cache;
  JvmsJfrObject object;
  entry_object (loaded, type, entry, &object);
  JfrMethod *m = jfr_arena_alloc0 (loaded->arena, sizeof *m);
  const JvmsJfrField *tf = jvms_jfr_type_find_field (type, "type");
  const char *class_name = NULL;
  if (tf != NULL)
    jvms_jfr_object_get_class_name (&object, tf, &class_name);
  m->class_name = class_name;
  m->name = persist (loaded, object_string (&object, "name"));
  m->descriptor = persist (loaded, object_string (&object, "descriptor"));
  m->modifiers = (gint32) object_int (&object, "modifiers", 0);
  m->hidden = object_int (&object, "hidden", 0) != 0;
  entry->cache = m;
  return m;
}

/* The constant behind a value read from a constant-pool reference, or NULL. */
static JfrPoolEntry *
value_entry (const JvmsJfrValue *v, guint special)
{
  if (v->kind != JVMS_JFR_VALUE_OBJECT || !v->from_pool || v->type->special != special)
    return NULL;
  if (v->object.priv_entry != NULL)
    return v->object.priv_entry;
  return lookup (v->object.priv_chunk, v->type, v->pool_key);
}

static const JfrMethod *
value_method (const JvmsJfrValue *v)
{
  JfrPoolEntry *entry = value_entry (v, JFR_SPECIAL_METHOD);
  return entry ? method_entry (v->object.priv_chunk, v->type, entry) : NULL;
}

static const JvmsJfrThread *
thread_entry (JfrLoaded *loaded, const JvmsJfrType *type, JfrPoolEntry *entry)
{
  if (entry->cache != NULL)
    return entry->cache;
  JvmsJfrObject object;
  entry_object (loaded, type, entry, &object);
  JvmsJfrThread *t = jfr_arena_alloc0 (loaded->arena, sizeof *t);
  t->key = entry->key;
  t->os_name = persist (loaded, object_string (&object, "osName"));
  t->os_thread_id = object_int (&object, "osThreadId", 0);
  t->java_name = persist (loaded, object_string (&object, "javaName"));
  t->java_thread_id = object_int (&object, "javaThreadId", 0);
  t->is_virtual = object_int (&object, "virtual", 0) != 0;
  const JvmsJfrField *gf = jvms_jfr_type_find_field (type, "group");
  JvmsJfrObject group;
  if (gf != NULL && jvms_jfr_object_get_object (&object, gf, &group))
    t->group_name = persist (loaded, object_string (&group, "name"));
  entry->cache = t;
  return t;
}

/* A frame's type name, one copy per name in the chunk (HotSpot has five): its users tell types
 * apart by address, and a frame costs no copy. */
static const char *
frame_type (JfrLoaded *loaded, const char *s)
{
  if (s == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (loaded->frame_types); i++)
    {
      if (loaded->frame_types[i] == NULL)
        return loaded->frame_types[i] = persist (loaded, s);
      if (strcmp (loaded->frame_types[i], s) == 0)
        return loaded->frame_types[i];
    }
  return persist (loaded, s);
}

static const JvmsJfrStackTrace *
stack_entry (JfrLoaded *loaded, const JvmsJfrType *type, JfrPoolEntry *entry)
{
  if (entry->cache != NULL)
    return entry->cache;
  JvmsJfrObject object;
  entry_object (loaded, type, entry, &object);
  JvmsJfrStackTrace *st = jfr_arena_alloc0 (loaded->arena, sizeof *st);
  st->key = entry->key;
  st->truncated = object_int (&object, "truncated", 0) != 0;
  const JvmsJfrField *ff = jvms_jfr_type_find_field (type, "frames");
  JvmsJfrValue frames;
  if (ff != NULL && ff->array && jvms_jfr_object_get_value (&object, ff, &frames)
      && frames.kind == JVMS_JFR_VALUE_ARRAY && frames.type->kind == JVMS_JFR_KIND_OBJECT)
    {
      const JvmsJfrType *ft = frames.type;
      const JvmsJfrField *f_method = jvms_jfr_type_find_field (ft, "method");
      const JvmsJfrField *f_line = jvms_jfr_type_find_field (ft, "lineNumber");
      const JvmsJfrField *f_bci = jvms_jfr_type_find_field (ft, "bytecodeIndex");
      const JvmsJfrField *f_type = jvms_jfr_type_find_field (ft, "type");
      /* HotSpot records at most 2048 frames; more is damage, and must not cost memory */
      guint64 n_max = MIN (frames.array.length, JFR_MAX_FRAMES);
      if (frames.array.length > n_max)
        st->truncated = TRUE;
      JvmsJfrFrame *out = jfr_arena_alloc0 (loaded->arena, sizeof *out * (gsize) MAX (n_max, 1));
      JvmsJfrArrayIter iter;
      JvmsJfrValue fv;
      guint n = 0;
      jvms_jfr_array_iter_init (&iter, &frames);
      while (n < n_max && jvms_jfr_array_iter_next (&iter, &fv))
        {
          JvmsJfrFrame *fr = &out[n++];
          gint64 v;
          fr->line_number = f_line && jvms_jfr_object_get_int64 (&fv.object, f_line, &v) ? (gint32) v : -1;
          fr->bytecode_index = f_bci && jvms_jfr_object_get_int64 (&fv.object, f_bci, &v) ? (gint32) v : 0;
          if (f_type != NULL)
            {
              const char *ftype = NULL;
              if (jvms_jfr_object_get_string (&fv.object, f_type, &ftype))
                fr->type = frame_type (loaded, ftype);
            }
          JvmsJfrValue mv;
          const JfrMethod *m;
          if (f_method != NULL && jvms_jfr_object_get_value (&fv.object, f_method, &mv)
              && (m = value_method (&mv)) != NULL)
            {
              fr->class_name = m->class_name;
              fr->method_name = m->name;
              fr->descriptor = m->descriptor;
              fr->modifiers = m->modifiers;
              fr->hidden = m->hidden;
            }
        }
      st->n_frames = n;
      st->frames = out;
    }
  entry->cache = st;
  return st;
}

/* ---- typed helpers ---- */

/* A field holding a number or a boolean: the typed getters below take what they can use. */
static gboolean
get_scalar (const JvmsJfrObject *object, const JvmsJfrField *field, JvmsJfrValue *v)
{
  return field != NULL && jvms_jfr_object_get_value (object, field, v)
         && (v->kind == JVMS_JFR_VALUE_INTEGER || v->kind == JVMS_JFR_VALUE_BOOLEAN
             || v->kind == JVMS_JFR_VALUE_FLOAT);
}

gboolean
jvms_jfr_object_get_int64 (const JvmsJfrObject *object, const JvmsJfrField *field, gint64 *out)
{
  JvmsJfrValue v;
  if (!get_scalar (object, field, &v) || v.kind == JVMS_JFR_VALUE_FLOAT)
    return FALSE;
  *out = v.kind == JVMS_JFR_VALUE_BOOLEAN ? (v.b != 0) : v.i;
  return TRUE;
}

gboolean
jvms_jfr_object_get_uint64 (const JvmsJfrObject *object, const JvmsJfrField *field, guint64 *out)
{
  JvmsJfrValue v;
  if (!get_scalar (object, field, &v) || v.kind == JVMS_JFR_VALUE_FLOAT)
    return FALSE;
  *out = v.kind == JVMS_JFR_VALUE_BOOLEAN ? (v.b != 0) : v.u;
  return TRUE;
}

gboolean
jvms_jfr_object_get_double (const JvmsJfrObject *object, const JvmsJfrField *field, double *out)
{
  JvmsJfrValue v;
  if (!get_scalar (object, field, &v) || v.kind == JVMS_JFR_VALUE_BOOLEAN)
    return FALSE;
  if (v.kind == JVMS_JFR_VALUE_FLOAT)
    *out = v.d;
  else
    *out = field->is_unsigned ? (double) v.u : (double) v.i;
  return TRUE;
}

gboolean
jvms_jfr_object_get_boolean (const JvmsJfrObject *object, const JvmsJfrField *field, gboolean *out)
{
  JvmsJfrValue v;
  if (!get_scalar (object, field, &v) || v.kind != JVMS_JFR_VALUE_BOOLEAN)
    return FALSE;
  *out = v.b;
  return TRUE;
}

/* ---- decoded forms of a value ---- */

gboolean
jvms_jfr_value_get_string (const JvmsJfrValue *value, const char **out)
{
  g_return_val_if_fail (value != NULL && out != NULL, FALSE);
  if (value->kind == JVMS_JFR_VALUE_STRING)
    {
      *out = value->s;
      return TRUE;
    }
  if (value->kind != JVMS_JFR_VALUE_OBJECT || value->type->string_field == NULL)
    return FALSE;
  if (!value->from_pool)
    return jvms_jfr_object_get_string (&value->object, value->type->string_field, out);
  JfrLoaded *loaded = value->object.priv_chunk;
  JfrPoolEntry *entry = lookup (loaded, value->type, value->pool_key);
  const char *s = entry ? entry_string (loaded, value->type, entry, 0) : NULL;
  if (s == NULL)
    return FALSE;
  *out = s;
  return TRUE;
}

gboolean
jvms_jfr_value_get_class_name (const JvmsJfrValue *value, const char **out)
{
  g_return_val_if_fail (value != NULL && out != NULL, FALSE);
  if (value->kind != JVMS_JFR_VALUE_OBJECT || value->type->special != JFR_SPECIAL_CLASS)
    return FALSE;
  JfrLoaded *loaded = value->object.priv_chunk;
  const char *name;
  if (value->from_pool)
    {
      JfrPoolEntry *entry = value_entry (value, JFR_SPECIAL_CLASS);
      name = entry ? class_entry_name (loaded, value->type, entry) : NULL;
    }
  else
    {
      const char *internal = object_string (&value->object, "name");
      name = internal ? java_class_name (loaded->event_arena, internal) : NULL;
    }
  if (name == NULL)
    return FALSE;
  *out = name;
  return TRUE;
}

gboolean
jvms_jfr_value_get_thread (const JvmsJfrValue *value, const JvmsJfrThread **out)
{
  g_return_val_if_fail (value != NULL && out != NULL, FALSE);
  JfrPoolEntry *entry = value_entry (value, JFR_SPECIAL_THREAD);
  if (entry == NULL)
    return FALSE;
  *out = thread_entry (value->object.priv_chunk, value->type, entry);
  return TRUE;
}

gboolean
jvms_jfr_value_get_stack_trace (const JvmsJfrValue *value, const JvmsJfrStackTrace **out)
{
  g_return_val_if_fail (value != NULL && out != NULL, FALSE);
  JfrPoolEntry *entry = value_entry (value, JFR_SPECIAL_STACK_TRACE);
  if (entry == NULL)
    return FALSE;
  *out = stack_entry (value->object.priv_chunk, value->type, entry);
  return TRUE;
}

/* ---- the same on a field of an object ---- */

gboolean
jvms_jfr_object_get_string (const JvmsJfrObject *object, const JvmsJfrField *field, const char **out)
{
  JvmsJfrValue v;
  return field != NULL && !field->array && jvms_jfr_object_get_value (object, field, &v)
         && jvms_jfr_value_get_string (&v, out);
}

gboolean
jvms_jfr_object_get_class_name (const JvmsJfrObject *object, const JvmsJfrField *field, const char **out)
{
  JvmsJfrValue v;
  return field != NULL && !field->array && field->type->special == JFR_SPECIAL_CLASS
         && jvms_jfr_object_get_value (object, field, &v) && jvms_jfr_value_get_class_name (&v, out);
}

gboolean
jvms_jfr_object_get_method (const JvmsJfrObject *object, const JvmsJfrField *field,
                            const char **class_name, const char **method_name,
                            const char **descriptor)
{
  JvmsJfrValue v;
  const JfrMethod *m;
  if (field == NULL || field->array || field->type->special != JFR_SPECIAL_METHOD
      || !jvms_jfr_object_get_value (object, field, &v) || (m = value_method (&v)) == NULL)
    return FALSE;
  if (class_name) *class_name = m->class_name;
  if (method_name) *method_name = m->name;
  if (descriptor) *descriptor = m->descriptor;
  return TRUE;
}

gboolean
jvms_jfr_object_get_thread (const JvmsJfrObject *object, const JvmsJfrField *field,
                            const JvmsJfrThread **out)
{
  JvmsJfrValue v;
  return field != NULL && !field->array && field->type->special == JFR_SPECIAL_THREAD
         && jvms_jfr_object_get_value (object, field, &v) && jvms_jfr_value_get_thread (&v, out);
}

gboolean
jvms_jfr_object_get_stack_trace (const JvmsJfrObject *object, const JvmsJfrField *field,
                                 const JvmsJfrStackTrace **out)
{
  JvmsJfrValue v;
  return field != NULL && !field->array && field->type->special == JFR_SPECIAL_STACK_TRACE
         && jvms_jfr_object_get_value (object, field, &v) && jvms_jfr_value_get_stack_trace (&v, out);
}

gboolean
jvms_jfr_object_get_object (const JvmsJfrObject *object, const JvmsJfrField *field,
                            JvmsJfrObject *out)
{
  JvmsJfrValue v;
  if (field == NULL || !jvms_jfr_object_get_value (object, field, &v) || v.kind != JVMS_JFR_VALUE_OBJECT)
    return FALSE;
  *out = v.object;
  return TRUE;
}

static gboolean
mul_ok (gint64 v, gint64 factor, gint64 *out)
{
  return !__builtin_mul_overflow (v, factor, out);
}

gboolean
jvms_jfr_object_get_time_ns (const JvmsJfrObject *object, const JvmsJfrField *field, gint64 *out)
{
  gint64 v;
  if (field == NULL || !jvms_jfr_object_get_int64 (object, field, &v) || v == G_MININT64)
    return FALSE;
  JfrLoaded *loaded = object->priv_chunk;
  const JvmsJfrChunkInfo *chunk = &loaded->chunk->info;
  switch (field->unit)
    {
    case JVMS_JFR_UNIT_TIMESTAMP_TICKS: *out = jvms_jfr_chunk_ticks_to_epoch_ns (chunk, v); return TRUE;
    case JVMS_JFR_UNIT_TIMESPAN_TICKS:  *out = jvms_jfr_chunk_ticks_to_ns (chunk, v); return TRUE;
    case JVMS_JFR_UNIT_TIMESTAMP_MS_EPOCH:
    case JVMS_JFR_UNIT_TIMESPAN_MS:     return mul_ok (v, 1000000, out);
    case JVMS_JFR_UNIT_TIMESPAN_NS:     *out = v; return TRUE;
    case JVMS_JFR_UNIT_TIMESPAN_US:     return mul_ok (v, 1000, out);
    case JVMS_JFR_UNIT_TIMESPAN_S:      return mul_ok (v, 1000000000, out);
    default:                            return FALSE;
    }
}
