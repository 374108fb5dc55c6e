/* jfr-types.c: the public accessors of types, fields, annotations and settings. */
#include <string.h>

#include "jfr-private.h"

guint64 jvms_jfr_type_get_id (const JvmsJfrType *type) { return type->id; }
const char *jvms_jfr_type_get_name (const JvmsJfrType *type) { return type->name; }
const char *jvms_jfr_type_get_super_type (const JvmsJfrType *type) { return type->super_type; }
JvmsJfrKind jvms_jfr_type_get_kind (const JvmsJfrType *type) { return type->kind; }
gboolean jvms_jfr_type_is_event (const JvmsJfrType *type) { return type->is_event; }
gboolean jvms_jfr_type_is_simple (const JvmsJfrType *type) { return type->simple; }
const char *jvms_jfr_type_get_label (const JvmsJfrType *type) { return type->label; }
const char *jvms_jfr_type_get_description (const JvmsJfrType *type) { return type->description; }
const char * const *jvms_jfr_type_get_category (const JvmsJfrType *type) { return type->category; }
guint jvms_jfr_type_get_n_fields (const JvmsJfrType *type) { return type->n_fields; }
guint jvms_jfr_type_get_n_annotations (const JvmsJfrType *type) { return type->n_annotations; }
guint jvms_jfr_type_get_n_settings (const JvmsJfrType *type) { return type->n_settings; }

const JvmsJfrField *
jvms_jfr_type_get_field (const JvmsJfrType *type, guint index)
{
  g_return_val_if_fail (index < type->n_fields, NULL);
  return &type->fields[index];
}

const JvmsJfrField *
jvms_jfr_type_find_field (const JvmsJfrType *type, const char *name)
{
  g_return_val_if_fail (type != NULL && name != NULL, NULL);
  for (guint i = 0; i < type->n_fields; i++)
    if (strcmp (type->fields[i].name, name) == 0)
      return &type->fields[i];
  return NULL;
}

const JvmsJfrField *
jvms_jfr_type_get_stack_trace_field (const JvmsJfrType *type)
{
  g_return_val_if_fail (type != NULL, NULL);
  return type->stack_field >= 0 ? &type->fields[type->stack_field] : NULL;
}

const JvmsJfrAnnotation *
jvms_jfr_type_get_annotation (const JvmsJfrType *type, guint index)
{
  g_return_val_if_fail (index < type->n_annotations, NULL);
  return &type->annotations[index];
}

const JvmsJfrSetting *
jvms_jfr_type_get_setting (const JvmsJfrType *type, guint index)
{
  g_return_val_if_fail (index < type->n_settings, NULL);
  return &type->settings[index];
}

const char *jvms_jfr_field_get_name (const JvmsJfrField *field) { return field->name; }
guint jvms_jfr_field_get_index (const JvmsJfrField *field) { return field->index; }
const JvmsJfrType *jvms_jfr_field_get_type (const JvmsJfrField *field) { return field->type; }
gboolean jvms_jfr_field_is_array (const JvmsJfrField *field) { return field->array; }
gboolean jvms_jfr_field_is_constant_pool (const JvmsJfrField *field) { return field->constant_pool; }
const char *jvms_jfr_field_get_label (const JvmsJfrField *field) { return field->label; }
const char *jvms_jfr_field_get_description (const JvmsJfrField *field) { return field->description; }
guint jvms_jfr_field_get_n_annotations (const JvmsJfrField *field) { return field->n_annotations; }
JvmsJfrUnit jvms_jfr_field_get_unit (const JvmsJfrField *field) { return field->unit; }
gboolean jvms_jfr_field_is_unsigned (const JvmsJfrField *field) { return field->is_unsigned; }

const JvmsJfrAnnotation *
jvms_jfr_field_get_annotation (const JvmsJfrField *field, guint index)
{
  g_return_val_if_fail (index < field->n_annotations, NULL);
  return &field->annotations[index];
}

const JvmsJfrType *
jvms_jfr_annotation_get_type (const JvmsJfrAnnotation *annotation)
{
  return annotation->type;
}

const char *
jvms_jfr_annotation_get_attribute (const JvmsJfrAnnotation *annotation, const char *name)
{
  for (const char **a = annotation->attributes; a[0] != NULL; a += 2)
    if (strcmp (a[0], name) == 0)
      return a[1];
  return NULL;
}

static const JvmsJfrAnnotation *
find_annotation (const JvmsJfrAnnotation *annotations, guint n, const char *type_name)
{
  for (guint i = 0; i < n; i++)
    if (annotations[i].type != NULL && strcmp (annotations[i].type->name, type_name) == 0)
      return &annotations[i];
  return NULL;
}

const JvmsJfrAnnotation *
jvms_jfr_type_find_annotation (const JvmsJfrType *type, const char *type_name)
{
  return find_annotation (type->annotations, type->n_annotations, type_name);
}

const JvmsJfrAnnotation *
jvms_jfr_field_find_annotation (const JvmsJfrField *field, const char *type_name)
{
  return find_annotation (field->annotations, field->n_annotations, type_name);
}

const char *jvms_jfr_setting_get_name (const JvmsJfrSetting *setting) { return setting->name; }
const JvmsJfrType *jvms_jfr_setting_get_type (const JvmsJfrSetting *setting) { return setting->type; }
const char *jvms_jfr_setting_get_default_value (const JvmsJfrSetting *setting) { return setting->default_value; }
