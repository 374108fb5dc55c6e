/* jfr-metadata.c: the metadata record (type 0) into a type table.
 *
 * Layout: size type(=0) startTime duration metadataId stringCount string[stringCount] root,
 * where element := name:index attrCount (key:index value:index)* childCount element*. Every
 * attribute value is a string, numbers included.
 */
#include <stdlib.h>
#include <string.h>

#include "jfr-private.h"
#include "jfr-input.h"
#include "jfr-string.h"

#define MAX_ELEMENT_DEPTH 16

typedef struct _Element Element;
struct _Element
{
  const char  *name;
  const char **attrs;     /* key, value, …, NULL */
  guint        n_attrs;
  Element    **children;
  guint        n_children;
};

typedef struct
{
  JfrIn        in;
  const char **strings;
  guint64      n_strings;
  GPtrArray   *allocations;  /* everything the element tree allocated */
  const char  *what;         /* description of the failure, static */
  const guint8 *fail_at;
} Parser;

static const char *
element_attr (const Element *e, const char *key)
{
  for (guint i = 0; i < e->n_attrs; i++)
    if (strcmp (e->attrs[2 * i], key) == 0)
      return e->attrs[2 * i + 1];
  return NULL;
}

static const char *
parser_string (Parser *ps)
{
  guint64 index = jfr_in_int (&ps->in, 4);
  if (ps->in.bad)
    return NULL;
  if (index >= ps->n_strings)
    {
      ps->what = "string index beyond the string table";
      return NULL;
    }
  return ps->strings[index] ? ps->strings[index] : "";
}

static Element *
parse_element (Parser *ps, guint depth)
{
  if (depth > MAX_ELEMENT_DEPTH)
    {
      ps->what = "elements nested too deeply";
      return NULL;
    }
  const guint8 *start = ps->in.p;
  Element *e = g_new0 (Element, 1);
  g_ptr_array_add (ps->allocations, e);
  e->name = parser_string (ps);
  if (e->name == NULL)
    goto fail;
  guint64 n_attrs = jfr_in_int (&ps->in, 4);
  /* each attribute takes at least two bytes */
  if (ps->in.bad || n_attrs > jfr_in_left (&ps->in) / 2)
    {
      ps->what = "attribute count beyond the record";
      goto fail;
    }
  e->n_attrs = (guint) n_attrs;
  e->attrs = g_new0 (const char *, 2 * n_attrs + 1);
  g_ptr_array_add (ps->allocations, e->attrs);
  for (guint i = 0; i < e->n_attrs; i++)
    {
      e->attrs[2 * i] = parser_string (ps);
      e->attrs[2 * i + 1] = parser_string (ps);
      if (e->attrs[2 * i] == NULL || e->attrs[2 * i + 1] == NULL)
        goto fail;
    }
  guint64 n_children = jfr_in_int (&ps->in, 4);
  /* each child takes at least three bytes */
  if (ps->in.bad || n_children > jfr_in_left (&ps->in) / 3)
    {
      ps->what = "child count beyond the record";
      goto fail;
    }
  e->n_children = (guint) n_children;
  e->children = g_new0 (Element *, n_children + 1);
  g_ptr_array_add (ps->allocations, e->children);
  for (guint i = 0; i < e->n_children; i++)
    {
      e->children[i] = parse_element (ps, depth + 1);
      if (e->children[i] == NULL)
        return NULL;
    }
  return e;

fail:
  if (ps->what == NULL)
    ps->what = "element cut short";
  if (ps->fail_at == NULL)
    ps->fail_at = start;
  return NULL;
}

static JvmsJfrKind
kind_for_name (const char *name)
{
  static const struct { const char *name; JvmsJfrKind kind; } kinds[] = {
    { "boolean", JVMS_JFR_KIND_BOOLEAN }, { "byte", JVMS_JFR_KIND_BYTE },
    { "short", JVMS_JFR_KIND_SHORT }, { "char", JVMS_JFR_KIND_CHAR },
    { "int", JVMS_JFR_KIND_INT }, { "long", JVMS_JFR_KIND_LONG },
    { "float", JVMS_JFR_KIND_FLOAT }, { "double", JVMS_JFR_KIND_DOUBLE },
    { "java.lang.String", JVMS_JFR_KIND_STRING },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (name, kinds[i].name) == 0)
      return kinds[i].kind;
  return JVMS_JFR_KIND_OBJECT;
}

static gboolean
parse_id (const char *text, guint64 *out)
{
  if (text == NULL || *text == '\0')
    return FALSE;
  char *end = NULL;
  guint64 v = g_ascii_strtoull (text, &end, 10);
  if (end == NULL || *end != '\0')
    return FALSE;
  *out = v;
  return TRUE;
}

static guint
count_children (const Element *e, const char *name)
{
  guint n = 0;
  for (guint i = 0; i < e->n_children; i++)
    if (strcmp (e->children[i]->name, name) == 0)
      n++;
  return n;
}

/* Annotations are kept raw (type id + attributes) until every class is known. */
static JvmsJfrAnnotation *
build_annotations (JfrMetadata *md, const Element *e, guint *n_out)
{
  guint n = count_children (e, "annotation");
  *n_out = n;
  if (n == 0)
    return NULL;
  JvmsJfrAnnotation *annotations = g_new0 (JvmsJfrAnnotation, n);
  guint k = 0;
  for (guint i = 0; i < e->n_children; i++)
    {
      const Element *c = e->children[i];
      if (strcmp (c->name, "annotation") != 0)
        continue;
      JvmsJfrAnnotation *a = &annotations[k++];
      parse_id (element_attr (c, "class"), &a->type_id);
      const char **attrs = g_new0 (const char *, 2 * c->n_attrs + 1);
      guint m = 0;
      for (guint j = 0; j < c->n_attrs; j++)
        {
          if (strcmp (c->attrs[2 * j], "class") == 0)
            continue;
          attrs[m++] = g_string_chunk_insert_const (md->strings, c->attrs[2 * j]);
          attrs[m++] = g_string_chunk_insert_const (md->strings, c->attrs[2 * j + 1]);
        }
      a->attributes = attrs;
    }
  return annotations;
}

static void
free_annotations (JvmsJfrAnnotation *annotations, guint n)
{
  for (guint i = 0; i < n; i++)
    g_free (annotations[i].attributes);
  g_free (annotations);
}

JfrMetadata *
jfr_metadata_ref (JfrMetadata *md)
{
  g_atomic_int_inc (&md->ref_count);
  return md;
}

void
jfr_metadata_unref (JfrMetadata *md)
{
  if (md == NULL || !g_atomic_int_dec_and_test (&md->ref_count))
    return;
  for (guint i = 0; i < md->n_types; i++)
    {
      JvmsJfrType *t = md->types[i];
      for (guint f = 0; f < t->n_fields; f++)
        free_annotations (t->fields[f].annotations, t->fields[f].n_annotations);
      g_free (t->fields);
      free_annotations (t->annotations, t->n_annotations);
      g_free (t->settings);
      g_free (t->category);
      g_free (t);
    }
  g_free (md->types);
  g_free (md->small_ids);
  g_clear_pointer (&md->by_id, g_hash_table_unref);
  g_clear_pointer (&md->by_name, g_hash_table_unref);
  g_clear_pointer (&md->payload, g_bytes_unref);
  g_string_chunk_free (md->strings);
  g_free (md);
}

const JvmsJfrType *
jfr_metadata_lookup (const JfrMetadata *md, guint64 id)
{
  if (id < md->n_small_ids)
    return md->small_ids[id];
  return g_hash_table_lookup (md->by_id, &id);
}

static const char *
annotation_value (const JvmsJfrAnnotation *annotations, guint n, const char *type_name,
                  const char *key)
{
  for (guint i = 0; i < n; i++)
    if (annotations[i].type != NULL && strcmp (jvms_jfr_type_get_name (annotations[i].type), type_name) == 0)
      {
        for (const char **a = annotations[i].attributes; a[0] != NULL; a += 2)
          if (strcmp (a[0], key) == 0)
            return a[1];
        return NULL;
      }
  return NULL;
}

static gboolean
has_annotation (const JvmsJfrAnnotation *annotations, guint n, const char *type_name)
{
  for (guint i = 0; i < n; i++)
    if (annotations[i].type != NULL && strcmp (jvms_jfr_type_get_name (annotations[i].type), type_name) == 0)
      return TRUE;
  return FALSE;
}

static JvmsJfrUnit
field_unit (const JvmsJfrField *f)
{
  const JvmsJfrAnnotation *a = f->annotations;
  guint n = f->n_annotations;
  if (has_annotation (a, n, "jdk.jfr.Timestamp"))
    {
      const char *v = annotation_value (a, n, "jdk.jfr.Timestamp", "value");
      return g_strcmp0 (v, "TICKS") == 0 ? JVMS_JFR_UNIT_TIMESTAMP_TICKS
                                          : JVMS_JFR_UNIT_TIMESTAMP_MS_EPOCH;
    }
  if (has_annotation (a, n, "jdk.jfr.Timespan"))
    {
      const char *v = annotation_value (a, n, "jdk.jfr.Timespan", "value");
      if (g_strcmp0 (v, "TICKS") == 0) return JVMS_JFR_UNIT_TIMESPAN_TICKS;
      if (g_strcmp0 (v, "MICROSECONDS") == 0) return JVMS_JFR_UNIT_TIMESPAN_US;
      if (g_strcmp0 (v, "MILLISECONDS") == 0) return JVMS_JFR_UNIT_TIMESPAN_MS;
      if (g_strcmp0 (v, "SECONDS") == 0) return JVMS_JFR_UNIT_TIMESPAN_S;
      return JVMS_JFR_UNIT_TIMESPAN_NS;
    }
  if (has_annotation (a, n, "jdk.jfr.DataAmount"))
    return g_strcmp0 (annotation_value (a, n, "jdk.jfr.DataAmount", "value"), "BITS") == 0
           ? JVMS_JFR_UNIT_BITS : JVMS_JFR_UNIT_BYTES;
  if (has_annotation (a, n, "jdk.jfr.Percentage"))
    return JVMS_JFR_UNIT_PERCENTAGE;
  if (has_annotation (a, n, "jdk.jfr.MemoryAddress"))
    return JVMS_JFR_UNIT_ADDRESS;
  if (has_annotation (a, n, "jdk.jfr.Frequency"))
    return JVMS_JFR_UNIT_FREQUENCY;
  return JVMS_JFR_UNIT_NONE;
}

static void
field_plan (JvmsJfrField *f)
{
  f->op = f->array ? JFR_OP_ARRAY : f->constant_pool ? JFR_OP_POOL : (guint8) f->type->kind;
  f->width = f->op == JFR_OP_POOL ? 8 : (guint8) jfr_kind_width (f->type->kind);
}

static void
resolve_annotations (JfrMetadata *md, JvmsJfrAnnotation *annotations, guint n)
{
  for (guint i = 0; i < n; i++)
    annotations[i].type = jfr_metadata_lookup (md, annotations[i].type_id);
}

/* An inline (non constant-pool) field of a compound type must not lead back to the type
 * itself, and inline nesting must stay shallow, or decoding would recurse without end.
 * Returns the nesting height, or -1. */
static gint
inline_height (const JvmsJfrType *t, guint8 *state, guint8 *height, guint depth)
{
  if (depth > JFR_MAX_NESTING || state[t->ordinal] == 1)
    return -1;
  if (state[t->ordinal] == 2)
    return height[t->ordinal];
  state[t->ordinal] = 1;
  gint h = 0;
  for (guint i = 0; i < t->n_fields; i++)
    {
      const JvmsJfrField *f = &t->fields[i];
      if (f->constant_pool || f->type->kind != JVMS_JFR_KIND_OBJECT)
        continue;
      gint sub = inline_height (f->type, state, height, depth + 1);
      if (sub < 0)
        return -1;
      h = MAX (h, sub + 1);
    }
  state[t->ordinal] = 2;
  height[t->ordinal] = (guint8) h;
  return h;
}

static gboolean
build_types (JfrMetadata *md, const Element *root, Parser *ps)
{
  const Element *meta = NULL;
  for (guint i = 0; i < root->n_children; i++)
    {
      const Element *c = root->children[i];
      if (strcmp (c->name, "metadata") == 0)
        meta = c;
      else if (strcmp (c->name, "region") == 0)
        {
          const char *gmt = element_attr (c, "gmtOffset");
          if (gmt != NULL)
            md->gmt_offset_ms = g_ascii_strtoll (gmt, NULL, 10);
        }
    }
  if (meta == NULL)
    {
      ps->what = "no metadata element";
      return FALSE;
    }

  guint n = count_children (meta, "class");
  md->types = g_new0 (JvmsJfrType *, n + 1);
  md->by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  md->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 max_small = 0;

  for (guint i = 0; i < meta->n_children; i++)
    {
      const Element *c = meta->children[i];
      if (strcmp (c->name, "class") != 0)
        continue;
      JvmsJfrType *t = g_new0 (JvmsJfrType, 1);
      t->ordinal = md->n_types;
      md->types[md->n_types++] = t;
      const char *name = element_attr (c, "name");
      if (name == NULL || !parse_id (element_attr (c, "id"), &t->id))
        {
          ps->what = "class without a name or a numeric id";
          return FALSE;
        }
      t->name = g_string_chunk_insert_const (md->strings, name);
      const char *super = element_attr (c, "superType");
      t->super_type = super ? g_string_chunk_insert_const (md->strings, super) : NULL;
      t->simple = g_strcmp0 (element_attr (c, "simpleType"), "true") == 0;
      t->kind = kind_for_name (t->name);
      t->is_event = g_strcmp0 (super, "jdk.jfr.Event") == 0;
      t->start_field = t->duration_field = t->thread_field = t->stack_field = -1;
      t->annotations = build_annotations (md, c, &t->n_annotations);

      t->n_fields = count_children (c, "field");
      t->fields = g_new0 (JvmsJfrField, t->n_fields);
      t->n_settings = count_children (c, "setting");
      t->settings = g_new0 (JvmsJfrSetting, t->n_settings);
      guint nf = 0, ns = 0;
      for (guint j = 0; j < c->n_children; j++)
        {
          const Element *fe = c->children[j];
          if (strcmp (fe->name, "field") == 0)
            {
              JvmsJfrField *f = &t->fields[nf];
              f->index = nf++;
              const char *fname = element_attr (fe, "name");
              if (fname == NULL || !parse_id (element_attr (fe, "class"), &f->type_id))
                {
                  ps->what = "field without a name or a numeric class";
                  return FALSE;
                }
              f->name = g_string_chunk_insert_const (md->strings, fname);
              const char *dim = element_attr (fe, "dimension");
              f->array = dim != NULL && strcmp (dim, "0") != 0;
              f->constant_pool = g_strcmp0 (element_attr (fe, "constantPool"), "true") == 0;
              f->annotations = build_annotations (md, fe, &f->n_annotations);
            }
          else if (strcmp (fe->name, "setting") == 0)
            {
              JvmsJfrSetting *s = &t->settings[ns++];
              const char *sname = element_attr (fe, "name");
              const char *def = element_attr (fe, "defaultValue");
              s->name = g_string_chunk_insert_const (md->strings, sname ? sname : "");
              s->default_value = def ? g_string_chunk_insert_const (md->strings, def) : NULL;
              parse_id (element_attr (fe, "class"), &s->type_id);
            }
        }
      g_hash_table_insert (md->by_id, &t->id, t);
      g_hash_table_insert (md->by_name, (gpointer) t->name, t);
      if (t->id < 65536 && t->id > max_small)
        max_small = t->id;
    }

  md->n_small_ids = (guint) max_small + 1;
  md->small_ids = g_new0 (JvmsJfrType *, md->n_small_ids);
  for (guint i = 0; i < md->n_types; i++)
    if (md->types[i]->id < md->n_small_ids)
      md->small_ids[md->types[i]->id] = md->types[i];

  for (guint i = 0; i < md->n_types; i++)
    {
      JvmsJfrType *t = md->types[i];
      resolve_annotations (md, t->annotations, t->n_annotations);
      t->label = annotation_value (t->annotations, t->n_annotations, "jdk.jfr.Label", "value");
      t->description = annotation_value (t->annotations, t->n_annotations, "jdk.jfr.Description", "value");
      GPtrArray *cat = g_ptr_array_new ();
      for (guint a = 0; a < t->n_annotations; a++)
        if (t->annotations[a].type != NULL
            && strcmp (t->annotations[a].type->name, "jdk.jfr.Category") == 0)
          for (const char **kv = t->annotations[a].attributes; kv[0] != NULL; kv += 2)
            if (g_str_has_prefix (kv[0], "value"))
              g_ptr_array_add (cat, (gpointer) kv[1]);
      g_ptr_array_add (cat, NULL);
      t->category = (const char **) g_ptr_array_free (cat, FALSE);

      for (guint s = 0; s < t->n_settings; s++)
        t->settings[s].type = jfr_metadata_lookup (md, t->settings[s].type_id);

      for (guint f = 0; f < t->n_fields; f++)
        {
          JvmsJfrField *field = &t->fields[f];
          field->type = jfr_metadata_lookup (md, field->type_id);
          if (field->type == NULL)
            {
              ps->what = "field of a class that the metadata does not declare";
              return FALSE;
            }
          resolve_annotations (md, field->annotations, field->n_annotations);
          field->label = annotation_value (field->annotations, field->n_annotations, "jdk.jfr.Label", "value");
          field->description = annotation_value (field->annotations, field->n_annotations, "jdk.jfr.Description", "value");
          field->unit = field_unit (field);
          field_plan (field);
          field->is_unsigned = has_annotation (field->annotations, field->n_annotations, "jdk.jfr.Unsigned");
          if (strcmp (field->name, "startTime") == 0 && field->type->kind == JVMS_JFR_KIND_LONG && !field->array)
            t->start_field = (gint) f;
          else if (strcmp (field->name, "duration") == 0 && field->type->kind == JVMS_JFR_KIND_LONG && !field->array)
            t->duration_field = (gint) f;
          else if (strcmp (field->name, "eventThread") == 0 && strcmp (field->type->name, "java.lang.Thread") == 0 && !field->array)
            t->thread_field = (gint) f;
          else if (strcmp (field->name, "stackTrace") == 0 && strcmp (field->type->name, "jdk.types.StackTrace") == 0 && !field->array)
            t->stack_field = (gint) f;
        }
      if (t->kind != JVMS_JFR_KIND_OBJECT && t->n_fields > 0)
        {
          ps->what = "primitive type declared with fields";
          return FALSE;
        }
      if (t->n_fields == 1 && t->fields[0].type->kind == JVMS_JFR_KIND_STRING && !t->fields[0].array)
        t->string_field = &t->fields[0];
      if (strcmp (t->name, "java.lang.Thread") == 0)
        t->special = JFR_SPECIAL_THREAD;
      else if (strcmp (t->name, "jdk.types.StackTrace") == 0)
        t->special = JFR_SPECIAL_STACK_TRACE;
      else if (strcmp (t->name, "java.lang.Class") == 0)
        t->special = JFR_SPECIAL_CLASS;
      else if (strcmp (t->name, "jdk.types.Method") == 0)
        t->special = JFR_SPECIAL_METHOD;
      else if (strcmp (t->name, "jdk.types.ThreadGroup") == 0)
        t->special = JFR_SPECIAL_THREAD_GROUP;
    }

  g_autofree guint8 *state = g_new0 (guint8, md->n_types + 1);
  g_autofree guint8 *height = g_new0 (guint8, md->n_types + 1);
  for (guint i = 0; i < md->n_types; i++)
    if (inline_height (md->types[i], state, height, 0) < 0)
      {
        ps->what = "a class contains itself inline, or nests too deeply";
        return FALSE;
      }
  return TRUE;
}

JfrMetadata *
jfr_metadata_parse (JvmsJfrFile *file, guint chunk_index, const guint8 *record,
                    const guint8 *end, guint64 record_offset, gboolean compressed, GError **error)
{
  Parser ps = { 0 };
  jfr_in_init (&ps.in, record, end, compressed);
  jfr_in_long (&ps.in);              /* size, checked by the caller */
  guint64 type = jfr_in_long (&ps.in);
  jfr_in_long (&ps.in);              /* startTime */
  jfr_in_long (&ps.in);              /* duration */
  guint64 metadata_id = jfr_in_long (&ps.in);
  const guint8 *payload_start = ps.in.p;

  if (ps.in.bad || type != 0)
    {
      g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_CORRUPT,
                   "%s: chunk %u: metadata record at offset %" G_GUINT64_FORMAT " %s",
                   file->path, chunk_index, record_offset,
                   ps.in.bad ? "is cut short" : "does not have type 0");
      return NULL;
    }

  JfrMetadata *md = g_new0 (JfrMetadata, 1);
  md->ref_count = 1;
  md->metadata_id = metadata_id;
  md->strings = g_string_chunk_new (4096);
  ps.allocations = g_ptr_array_new_with_free_func (g_free);

  guint64 n_strings = jfr_in_int (&ps.in, 4);
  Element *root = NULL;
  if (ps.in.bad || n_strings > jfr_in_left (&ps.in))
    {
      ps.what = "string count beyond the record";
      ps.fail_at = payload_start;
      goto fail;
    }
  ps.n_strings = n_strings;
  ps.strings = g_new0 (const char *, n_strings + 1);
  g_ptr_array_add (ps.allocations, ps.strings);
  {
    g_autoptr(GString) buffer = g_string_new (NULL);
    for (guint64 i = 0; i < n_strings; i++)
      {
        const guint8 *at = ps.in.p;
        guint64 key = 0;
        g_string_truncate (buffer, 0);
        int encoding = jfr_string_read (&ps.in, buffer, &key);
        if (encoding < 0 || encoding == JFR_STRING_POOL)
          {
            ps.what = "unreadable string in the string table";
            ps.fail_at = at;
            goto fail;
          }
        ps.strings[i] = encoding == JFR_STRING_NULL ? NULL
                        : g_string_chunk_insert_const (md->strings, buffer->str);
      }
  }
  root = parse_element (&ps, 0);
  if (root == NULL)
    goto fail;
  if (!build_types (md, root, &ps))
    goto fail;

  md->payload = g_bytes_new (payload_start, (gsize) (end - payload_start));
  g_ptr_array_unref (ps.allocations);
  return md;

fail:
  g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_CORRUPT,
               "%s: chunk %u: metadata record at offset %" G_GUINT64_FORMAT ": %s (at offset %" G_GUINT64_FORMAT ")",
               file->path, chunk_index, record_offset,
               ps.what ? ps.what : "cut short",
               record_offset + (guint64) ((ps.fail_at ? ps.fail_at : ps.in.p) - record));
  g_ptr_array_unref (ps.allocations);
  jfr_metadata_unref (md);
  return NULL;
}
