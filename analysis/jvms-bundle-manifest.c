/* jvms-bundle-manifest.c: bundle.json, bounded before json-glib parses it. */
#include "jvms-bundle-manifest.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "jvms-input-file.h"

/* The deepest nesting of @text, skipping what json-glib's scanner skips: "strings" with
 * backslash escapes, 'strings' without, and C comments. Stops early past @max_depth (the
 * offset there in @where) or past @max_brackets brackets counted anywhere, strings included. */
static gboolean
nesting_within (const char *text, gsize len, guint max_depth, guint max_brackets,
                gsize *where, gboolean *too_many)
{
  guint depth = 0, brackets = 0;
  *too_many = FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];
      if (c == '[' || c == '{')
        {
          if (++brackets > max_brackets)
            {
              *where = i;
              *too_many = TRUE;
              return FALSE;
            }
        }
      if (c == '"' || c == '\'')
        {
          /* To the closing quote, or the end: an unterminated string is the parser's to refuse. */
          for (i++; i < len && text[i] != c; i++)
            {
              if (text[i] == '[' || text[i] == '{')
                brackets++;
              if (c == '"' && text[i] == '\\')
                i++;
            }
          if (brackets > max_brackets)
            {
              *where = MIN (i, len - 1);
              *too_many = TRUE;
              return FALSE;
            }
        }
      else if (c == '/' && i + 1 < len && text[i + 1] == '*')
        {
          const char *end = g_strstr_len (text + i + 2, (gssize) (len - i - 2), "*/");
          i = end != NULL ? (gsize) (end - text) + 1 : len;
        }
      else if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            {
              *where = i;
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

static gint64
int_member (JsonObject *o, const char *name, gboolean *found)
{
  JsonNode *n = json_object_get_member (o, name);
  gboolean ok = n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64;
  if (found != NULL)
    *found = ok;
  return ok ? json_node_get_int (n) : 0;
}

gboolean
jvms_bundle_manifest_read (const char *path, JvmsBundleManifest *out, GError **error)
{
  memset (out, 0, sizeof *out);
  out->pid = -1;

  gsize len = 0;
  g_autoptr(GError) read_error = NULL;
  g_autofree char *text = jvms_input_file_read (path, JVMS_BUNDLE_MANIFEST_MAX_BYTES, &len, &read_error);
  if (text == NULL)
    {
      /* "more than the N bytes expected of it": say what the bound is for. */
      if (g_error_matches (read_error, G_IO_ERROR, G_IO_ERROR_FAILED))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     "%s (a bundle.json is read up to %d bytes; the recorder writes a few KB)",
                     read_error->message, JVMS_BUNDLE_MANIFEST_MAX_BYTES);
      else
        g_propagate_error (error, g_steal_pointer (&read_error));
      return FALSE;
    }

  gsize where = 0;
  gboolean too_many = FALSE;
  if (!nesting_within (text, len, JVMS_BUNDLE_MANIFEST_MAX_DEPTH,
                       JVMS_BUNDLE_MANIFEST_MAX_BRACKETS, &where, &too_many))
    {
      if (too_many)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "%s: more than %d brackets (at offset %" G_GSIZE_FORMAT "); not read",
                     path, JVMS_BUNDLE_MANIFEST_MAX_BRACKETS, where);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "%s: nested deeper than %d levels (at offset %" G_GSIZE_FORMAT "); not read",
                     path, JVMS_BUNDLE_MANIFEST_MAX_DEPTH, where);
      return FALSE;
    }

  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) parse_error = NULL;
  if (!json_parser_load_from_data (parser, text, (gssize) len, &parse_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not valid JSON: %s", path,
                   parse_error->message);
      return FALSE;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON object", path);
      return FALSE;
    }
  JsonObject *o = json_node_get_object (root);
  gboolean found = FALSE;
  gint64 pid = int_member (o, "pid", &found);
  if (found)
    out->pid = pid;
  JsonNode *mode = json_object_get_member (o, "mode");
  out->attach = mode != NULL && JSON_NODE_HOLDS_VALUE (mode) && json_node_get_value_type (mode) == G_TYPE_STRING
                && g_strcmp0 (json_node_get_string (mode), "attach") == 0;
  JsonNode *clock = json_object_get_member (o, "clock");
  if (clock == NULL || !JSON_NODE_HOLDS_OBJECT (clock))
    return TRUE;
  JsonObject *c = json_node_get_object (clock);
  out->offset = int_member (c, "jfr_ticks_to_monotonic_offset_ns", &out->have_offset);
  out->uncertainty = int_member (c, "uncertainty_ns", NULL);
  JsonNode *m = json_object_get_member (c, "method");
  if (m != NULL && JSON_NODE_HOLDS_VALUE (m) && json_node_get_value_type (m) == G_TYPE_STRING)
    out->method = g_strdup (json_node_get_string (m));
  return TRUE;
}

void
jvms_bundle_manifest_clear (JvmsBundleManifest *manifest)
{
  g_clear_pointer (&manifest->method, g_free);
}
