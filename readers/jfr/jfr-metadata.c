/* jfr-metadata.c: the metadata record (type 0) into a type table.
 *
 * Layout: size type(=0) startTime duration metadataId stringCount string[stringCount] root,
 * where element := name:index attrCount (key:index value:index)* childCount element*. Every
 * attribute value is a string, numbers included.
 */
#include <stdlib.h>
#include <string.h>

#include "jfr-arena.h"
#include "jfr-private.h"
#include "jfr-input.h"
#include "jfr-string.h"

#define MAX_ELEMENT_DEPTH 16

/* Limits on one metadata record, far above what any writer produces (JDK 17: 1,944 strings,
 * 266 classes, about 5,000 elements in 96 KB) and low enough that a hostile record cannot
 * cost much memory: a class costs about 300 bytes of tables, a field about 130. */
#define MAX_STRINGS   ((guint64) 1 << 20)
#define MAX_ELEMENTS  ((guint) 1 << 18)   /* elements kept: classes, fields, settings, annotations */
#define MAX_CLASSES   ((guint) 1 << 16)

/* The element tree, flattened in document order: an element's children are the elements that
 * follow it up to @end, each child followed by its own subtree. Only the elements that
 * build_types reads are kept (metadata, region, class, field, setting, annotation where the
 * format puts them); the others are checked and dropped, so that a record of millions of
 * unknown elements costs no memory. */
typedef struct
{
  guint32 name;     /* string index */
  guint32 attrs;    /* its first attribute in Parser.attrs: key, value string indexes */
  guint32 n_attrs;
  guint32 end;      /* the index after its subtree */
} Element;

typedef enum
{
  KEEP_ROOT, KEEP_METADATA, KEEP_REGION, KEEP_CLASS, KEEP_FIELD, KEEP_SETTING,
  KEEP_ANNOTATION, KEEP_NONE,
} Keep;

typedef struct
{
  JfrIn         in;
  const char  **strings;    /* n_strings; "" for null strings */
  guint64       n_strings;
  GArray       *elements;   /* Element */
  GArray       *attrs;      /* guint32 */
  guint         n_classes;
  const char   *what;       /* description of the failure, static */
  char         *detail;     /* or a description with names */
  const guint8 *fail_at;
} Parser;

static inline const Element *
element_at (const Parser *ps, guint i)
{
  return &g_array_index (ps->elements, Element, i);
}

static inline const char *
element_name (const Parser *ps, const Element *e)
{
  return ps->strings[e->name];
}

static const char *
element_attr (const Parser *ps, const Element *e, const char *key)
{
  const guint32 *a = &g_array_index (ps->attrs, guint32, e->attrs);
  for (guint i = 0; i < e->n_attrs; i++)
    if (strcmp (ps->strings[a[2 * i]], key) == 0)
      return ps->strings[a[2 * i + 1]];
  return NULL;
}

/* Children of element @i: for (c = first_child (i); c < e->end; c = next_sibling (c)). */
static inline guint
first_child (guint i)
{
  return i + 1;
}

static inline guint
next_sibling (const Parser *ps, guint c)
{
  return element_at (ps, c)->end;
}

static gboolean
parser_index (Parser *ps, guint32 *out)
{
  guint64 index = jfr_in_int (&ps->in, 4);
  if (ps->in.bad)
    return FALSE;
  if (index >= ps->n_strings)
    {
      ps->what = "string index beyond the string table";
      return FALSE;
    }
  *out = (guint32) index;
  return TRUE;
}

static Keep
keep_child (Keep parent, const char *name)
{
  switch (parent)
    {
    case KEEP_ROOT:
      return strcmp (name, "metadata") == 0 ? KEEP_METADATA
             : strcmp (name, "region") == 0 ? KEEP_REGION : KEEP_NONE;
    case KEEP_METADATA:
      return strcmp (name, "class") == 0 ? KEEP_CLASS : KEEP_NONE;
    case KEEP_CLASS:
      return strcmp (name, "field") == 0 ? KEEP_FIELD
             : strcmp (name, "setting") == 0 ? KEEP_SETTING
             : strcmp (name, "annotation") == 0 ? KEEP_ANNOTATION : KEEP_NONE;
    case KEEP_FIELD:
    case KEEP_SETTING:
      return strcmp (name, "annotation") == 0 ? KEEP_ANNOTATION : KEEP_NONE;
    default:
      return KEEP_NONE;
    }
}

/* Parses one element and its subtree; @keep says whether the format gives it a meaning here. */
static gboolean
parse_element (Parser *ps, guint depth, Keep keep)
{
  jfr_work++;
  if (depth > MAX_ELEMENT_DEPTH)
    {
      ps->what = "elements nested too deeply";
      return FALSE;
    }
  const guint8 *start = ps->in.p;
  Element e = { 0 };
  guint index = ps->elements->len;
  if (!parser_index (ps, &e.name))
    goto fail;
  if (depth > 0)
    keep = keep_child (keep, ps->strings[e.name]);
  guint64 n_attrs = jfr_in_int (&ps->in, 4);
  /* each attribute takes at least two bytes */
  if (ps->in.bad || n_attrs > jfr_in_left (&ps->in) / 2)
    {
      ps->what = "attribute count beyond the record";
      goto fail;
    }
  if (keep != KEEP_NONE)
    {
      if (index >= MAX_ELEMENTS)
        {
          ps->detail = g_strdup_printf ("more than %u classes, fields, settings and annotations (the limit)",
                                        MAX_ELEMENTS);
          goto fail;
        }
      if (keep == KEEP_CLASS && ++ps->n_classes > MAX_CLASSES)
        {
          ps->detail = g_strdup_printf ("more than %u classes (the limit)", MAX_CLASSES);
          goto fail;
        }
      e.attrs = ps->attrs->len;
      e.n_attrs = (guint32) n_attrs;
      g_array_append_val (ps->elements, e);
    }
  for (guint64 i = 0; i < 2 * n_attrs; i++)
    {
      guint32 s;
      if (!parser_index (ps, &s))
        goto fail;
      if (keep != KEEP_NONE)
        g_array_append_val (ps->attrs, s);
    }
  guint64 n_children = jfr_in_int (&ps->in, 4);
  /* each child takes at least three bytes */
  if (ps->in.bad || n_children > jfr_in_left (&ps->in) / 3)
    {
      ps->what = "child count beyond the record";
      goto fail;
    }
  for (guint64 i = 0; i < n_children; i++)
    if (!parse_element (ps, depth + 1, keep))
      return FALSE;
  if (keep != KEEP_NONE)
    g_array_index (ps->elements, Element, index).end = ps->elements->len;
  return TRUE;

fail:
  if (ps->what == NULL && ps->detail == NULL)
    ps->what = "element cut short";
  if (ps->fail_at == NULL)
    ps->fail_at = start;
  return FALSE;
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
count_children (const Parser *ps, guint i, const char *name)
{
  guint n = 0;
  const Element *e = element_at (ps, i);
  for (guint c = first_child (i); c < e->end; c = next_sibling (ps, c))
    if (strcmp (element_name (ps, element_at (ps, c)), name) == 0)
      n++;
  return n;
}

/* Annotations are kept raw (type id + attributes) until every class is known. */
static JvmsJfrAnnotation *
build_annotations (JfrMetadata *md, const Parser *ps, guint i, guint *n_out)
{
  guint n = count_children (ps, i, "annotation");
  *n_out = n;
  if (n == 0)
    return NULL;
  JvmsJfrAnnotation *annotations = jfr_arena_alloc0 (md->arena, n * sizeof *annotations);
  guint k = 0;
  const Element *e = element_at (ps, i);
  for (guint ci = first_child (i); ci < e->end; ci = next_sibling (ps, ci))
    {
      const Element *c = element_at (ps, ci);
      if (strcmp (element_name (ps, c), "annotation") != 0)
        continue;
      JvmsJfrAnnotation *a = &annotations[k++];
      parse_id (element_attr (ps, c, "class"), &a->type_id);
      const char **attrs = jfr_arena_alloc (md->arena, (2 * c->n_attrs + 1) * sizeof *attrs);
      const guint32 *kv = &g_array_index (ps->attrs, guint32, c->attrs);
      guint m = 0;
      for (guint j = 0; j < c->n_attrs; j++)
        {
          if (strcmp (ps->strings[kv[2 * j]], "class") == 0)
            continue;
          attrs[m++] = g_string_chunk_insert_const (md->strings, ps->strings[kv[2 * j]]);
          attrs[m++] = g_string_chunk_insert_const (md->strings, ps->strings[kv[2 * j + 1]]);
        }
      attrs[m] = NULL;
      a->attributes = attrs;
    }
  return annotations;
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
  g_clear_pointer (&md->by_id, g_hash_table_unref);
  g_clear_pointer (&md->by_name, g_hash_table_unref);
  g_string_chunk_free (md->strings);
  jfr_arena_free (md->arena);
  g_free (md->payload_digest);
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
 * itself, and inline nesting must stay shallow, or decoding would recurse without end. The
 * height is checked when it is computed, not only on the way down: a type met again later
 * (memoized) keeps its height, so the order of declaration cannot hide a deep chain.
 * Returns the nesting height, or -1. */
static gint
inline_height (const JvmsJfrType *t, guint8 *state, guint8 *height, guint depth)
{
  if (state[t->ordinal] == 2)
    return height[t->ordinal];
  if (state[t->ordinal] == 1 || depth > JFR_MAX_NESTING)
    return -1;
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
  if (h > JFR_MAX_NESTING)
    return -1;
  state[t->ordinal] = 2;
  height[t->ordinal] = (guint8) h;
  return h;
}

/* The fewest bytes a value laid out as field @f takes: every value but an inline compound
 * takes at least one (a varint, a count, a key, a string's encoding byte). */
static guint64
field_min_bytes (const JvmsJfrField *f)
{
  if (f->op == JFR_OP_OBJECT)
    return f->type->min_bytes;
  switch (f->op)
    {
    case JFR_OP_FLOAT:  return 4;
    case JFR_OP_DOUBLE: return 8;
    default:            return 1;
    }
}

/* Each type's min_bytes, in an order where inline field types come first (inline_height made
 * sure there is one). A field holding inline a type that takes no byte (no field, or only such
 * fields) is refused: reading it costs work without consuming input, and a DAG of such types
 * (each holding three of the next) costs 3^levels steps for a few bytes of metadata. With every
 * value taking a byte, the work of any decode is bounded by the bytes it reads times the
 * nesting height. */
static gboolean
compute_min_bytes (JfrMetadata *md, Parser *ps, const guint8 *height)
{
  for (guint h = 0; h <= JFR_MAX_NESTING; h++)
    for (guint i = 0; i < md->n_types; i++)
      {
        JvmsJfrType *t = md->types[i];
        if (height[t->ordinal] != h)
          continue;
        guint64 sum = 0;
        for (guint f = 0; f < t->n_fields; f++)
          {
            const JvmsJfrField *field = &t->fields[f];
            if (!field->constant_pool && field->type->kind == JVMS_JFR_KIND_OBJECT
                && field->type->min_bytes == 0)
              {
                ps->detail = g_strdup_printf ("field %s of class %s holds class %s inline, which takes no byte on the wire (a class without fields)",
                                              field->name, t->name, field->type->name);
                return FALSE;
              }
            guint64 m = field_min_bytes (field);
            sum = sum > G_MAXUINT64 - m ? G_MAXUINT64 : sum + m;
          }
        t->min_bytes = sum;
      }
  return TRUE;
}

static gboolean
build_types (JfrMetadata *md, Parser *ps)
{
  guint meta = G_MAXUINT;
  const Element *root = element_at (ps, 0);
  for (guint ci = first_child (0); ci < root->end; ci = next_sibling (ps, ci))
    {
      const Element *c = element_at (ps, ci);
      if (strcmp (element_name (ps, c), "metadata") == 0)
        meta = ci;
      else if (strcmp (element_name (ps, c), "region") == 0)
        {
          const char *gmt = element_attr (ps, c, "gmtOffset");
          if (gmt != NULL)
            md->gmt_offset_ms = g_ascii_strtoll (gmt, NULL, 10);
        }
    }
  if (meta == G_MAXUINT)
    {
      ps->what = "no metadata element";
      return FALSE;
    }

  guint n = count_children (ps, meta, "class");
  md->types = jfr_arena_alloc0 (md->arena, (n + 1) * sizeof *md->types);
  md->by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  md->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 max_small = 0;

  const Element *me = element_at (ps, meta);
  for (guint ci = first_child (meta); ci < me->end; ci = next_sibling (ps, ci))
    {
      const Element *c = element_at (ps, ci);
      if (strcmp (element_name (ps, c), "class") != 0)
        continue;
      JvmsJfrType *t = jfr_arena_alloc0 (md->arena, sizeof *t);
      t->ordinal = md->n_types;
      md->types[md->n_types++] = t;
      const char *name = element_attr (ps, c, "name");
      if (name == NULL || !parse_id (element_attr (ps, c, "id"), &t->id))
        {
          ps->what = "class without a name or a numeric id";
          return FALSE;
        }
      t->name = g_string_chunk_insert_const (md->strings, name);
      const char *super = element_attr (ps, c, "superType");
      t->super_type = super ? g_string_chunk_insert_const (md->strings, super) : NULL;
      t->simple = g_strcmp0 (element_attr (ps, c, "simpleType"), "true") == 0;
      t->kind = kind_for_name (t->name);
      t->is_event = g_strcmp0 (super, "jdk.jfr.Event") == 0;
      t->start_field = t->duration_field = t->thread_field = t->stack_field = -1;
      t->annotations = build_annotations (md, ps, ci, &t->n_annotations);

      t->n_fields = count_children (ps, ci, "field");
      t->fields = jfr_arena_alloc0 (md->arena, t->n_fields * sizeof *t->fields);
      t->n_settings = count_children (ps, ci, "setting");
      t->settings = jfr_arena_alloc0 (md->arena, t->n_settings * sizeof *t->settings);
      guint nf = 0, ns = 0;
      for (guint fi = first_child (ci); fi < c->end; fi = next_sibling (ps, fi))
        {
          const Element *fe = element_at (ps, fi);
          if (strcmp (element_name (ps, fe), "field") == 0)
            {
              JvmsJfrField *f = &t->fields[nf];
              f->index = nf++;
              const char *fname = element_attr (ps, fe, "name");
              if (fname == NULL || !parse_id (element_attr (ps, fe, "class"), &f->type_id))
                {
                  ps->what = "field without a name or a numeric class";
                  return FALSE;
                }
              f->name = g_string_chunk_insert_const (md->strings, fname);
              const char *dim = element_attr (ps, fe, "dimension");
              f->array = dim != NULL && strcmp (dim, "0") != 0;
              f->constant_pool = g_strcmp0 (element_attr (ps, fe, "constantPool"), "true") == 0;
              f->annotations = build_annotations (md, ps, fi, &f->n_annotations);
            }
          else if (strcmp (element_name (ps, fe), "setting") == 0)
            {
              JvmsJfrSetting *st = &t->settings[ns++];
              const char *sname = element_attr (ps, fe, "name");
              const char *def = element_attr (ps, fe, "defaultValue");
              st->name = g_string_chunk_insert_const (md->strings, sname ? sname : "");
              st->default_value = def ? g_string_chunk_insert_const (md->strings, def) : NULL;
              parse_id (element_attr (ps, fe, "class"), &st->type_id);
            }
        }
      g_hash_table_insert (md->by_id, &t->id, t);
      g_hash_table_insert (md->by_name, (gpointer) t->name, t);
      if (t->id < 65536 && t->id > max_small)
        max_small = t->id;
    }

  /* ids below 65536 (HotSpot's) are looked up in a table, as long as it stays in proportion
   * to the number of types */
  md->n_small_ids = (guint) MIN (max_small + 1, (guint64) 8 * md->n_types + 256);
  md->small_ids = jfr_arena_alloc0 (md->arena, md->n_small_ids * sizeof *md->small_ids);
  for (guint i = 0; i < md->n_types; i++)
    if (md->types[i]->id < md->n_small_ids)
      md->small_ids[md->types[i]->id] = md->types[i];

  for (guint i = 0; i < md->n_types; i++)
    {
      JvmsJfrType *t = md->types[i];
      resolve_annotations (md, t->annotations, t->n_annotations);
      t->label = annotation_value (t->annotations, t->n_annotations, "jdk.jfr.Label", "value");
      t->description = annotation_value (t->annotations, t->n_annotations, "jdk.jfr.Description", "value");
      guint n_cat = 0;
      for (guint a = 0; a < t->n_annotations; a++)
        if (t->annotations[a].type != NULL
            && strcmp (t->annotations[a].type->name, "jdk.jfr.Category") == 0)
          for (const char **kv = t->annotations[a].attributes; kv[0] != NULL; kv += 2)
            if (g_str_has_prefix (kv[0], "value"))
              n_cat++;
      t->category = jfr_arena_alloc0 (md->arena, (n_cat + 1) * sizeof *t->category);
      n_cat = 0;
      for (guint a = 0; a < t->n_annotations; a++)
        if (t->annotations[a].type != NULL
            && strcmp (t->annotations[a].type->name, "jdk.jfr.Category") == 0)
          for (const char **kv = t->annotations[a].attributes; kv[0] != NULL; kv += 2)
            if (g_str_has_prefix (kv[0], "value"))
              t->category[n_cat++] = kv[1];

      for (guint st = 0; st < t->n_settings; st++)
        t->settings[st].type = jfr_metadata_lookup (md, t->settings[st].type_id);

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
  return compute_min_bytes (md, ps, height);
}

/* Reads the string table into one buffer; ps->strings points into it. */
static gboolean
read_strings (Parser *ps, GString *blob)
{
  g_autofree guint32 *offsets = g_new (guint32, ps->n_strings + 1);
  for (guint64 i = 0; i < ps->n_strings; i++)
    {
      jfr_work++;
      const guint8 *at = ps->in.p;
      guint64 key = 0;
      gsize before = blob->len;
      int encoding = jfr_string_read (&ps->in, blob, &key);
      if (encoding < 0 || encoding == JFR_STRING_POOL || blob->len >= G_MAXUINT32)
        {
          ps->what = "unreadable string in the string table";
          ps->fail_at = at;
          return FALSE;
        }
      /* null reads as "", as before */
      offsets[i] = (guint32) before;
      g_string_append_c (blob, '\0');
    }
  for (guint64 i = 0; i < ps->n_strings; i++)
    ps->strings[i] = blob->str + offsets[i];
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

  gsize record_size = (gsize) (end - record);
  JfrMetadata *md = g_new0 (JfrMetadata, 1);
  md->ref_count = 1;
  md->metadata_id = metadata_id;
  /* sized for the record: files of thousands of small chunks keep thousands of these */
  md->strings = g_string_chunk_new (CLAMP (record_size / 2, 256, 4096));
  md->arena = jfr_arena_new_sized (record_size * 2);
  ps.elements = g_array_new (FALSE, FALSE, sizeof (Element));
  ps.attrs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GString) blob = g_string_new (NULL);

  guint64 n_strings = jfr_in_int (&ps.in, 4);
  if (ps.in.bad || n_strings > jfr_in_left (&ps.in) || n_strings > MAX_STRINGS)
    {
      if (!ps.in.bad && n_strings <= jfr_in_left (&ps.in))
        ps.detail = g_strdup_printf ("string count %" G_GUINT64_FORMAT " beyond the limit of %" G_GUINT64_FORMAT,
                                     n_strings, MAX_STRINGS);
      else
        ps.what = "string count beyond the record";
      ps.fail_at = payload_start;
      goto fail;
    }
  ps.n_strings = n_strings;
  ps.strings = g_new0 (const char *, n_strings + 1);
  if (!read_strings (&ps, blob))
    goto fail;
  if (!parse_element (&ps, 0, KEEP_ROOT))
    goto fail;
  if (!build_types (md, &ps))
    goto fail;

  md->payload_size = (gsize) (end - payload_start);
  md->payload_digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, payload_start, md->payload_size);
  g_array_unref (ps.elements);
  g_array_unref (ps.attrs);
  g_free (ps.strings);
  return md;

fail:
  g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_CORRUPT,
               "%s: chunk %u: metadata record at offset %" G_GUINT64_FORMAT ": %s (at offset %" G_GUINT64_FORMAT ")",
               file->path, chunk_index, record_offset,
               ps.detail ? ps.detail : ps.what ? ps.what : "cut short",
               record_offset + (guint64) ((ps.fail_at ? ps.fail_at : ps.in.p) - record));
  g_free (ps.detail);
  g_array_unref (ps.elements);
  g_array_unref (ps.attrs);
  g_free (ps.strings);
  jfr_metadata_unref (md);
  return NULL;
}
