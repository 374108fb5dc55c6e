/* jvms-event-text.c: values of the event store as text, raw text and JSON. */
#include "jvms-event-text.h"

#include <math.h>
#include <string.h>

#include "jvms-time-format.h"

void
jvms_event_value_append_raw (GString *out, const JvmsEventValue *v)
{
  switch (v->kind)
    {
    case JVMS_EVENT_VALUE_FALSE:
      g_string_append (out, "false");
      break;
    case JVMS_EVENT_VALUE_TRUE:
      g_string_append (out, "true");
      break;
    case JVMS_EVENT_VALUE_INT:
    case JVMS_EVENT_VALUE_TIMESTAMP:
    case JVMS_EVENT_VALUE_TIMESPAN:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, v->i);
      break;
    case JVMS_EVENT_VALUE_DOUBLE:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        if (isfinite (v->d))
          g_string_append (out, g_ascii_dtostr (buf, sizeof buf, v->d));
        else
          g_string_append (out, isnan (v->d) ? "NaN" : v->d > 0 ? "Infinity" : "-Infinity");
        break;
      }
    case JVMS_EVENT_VALUE_STRING:
      g_string_append (out, v->s);
      break;
    case JVMS_EVENT_VALUE_NULL:
    default:
      break;
    }
}

void
jvms_json_append_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const unsigned char *c = (const unsigned char *) s; *c != '\0'; c++)
    switch (*c)
      {
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      default:
        if (*c < 0x20 || *c == 0x7f)
          g_string_append_printf (out, "\\u%04x", *c);
        else
          g_string_append_c (out, (char) *c);
      }
  g_string_append_c (out, '"');
}

void
jvms_event_value_append_json (GString *out, const JvmsEventValue *v)
{
  switch (v->kind)
    {
    case JVMS_EVENT_VALUE_STRING:
      jvms_json_append_string (out, v->s);
      break;
    case JVMS_EVENT_VALUE_DOUBLE:
      /* JSON has no NaN or infinities. */
      if (!isfinite (v->d))
        g_string_append (out, "null");
      else
        jvms_event_value_append_raw (out, v);
      break;
    case JVMS_EVENT_VALUE_NULL:
      g_string_append (out, "null");
      break;
    default:
      jvms_event_value_append_raw (out, v);
      break;
    }
}

void
jvms_csv_append_field (GString *out, const char *s)
{
  if (strpbrk (s, ",\"\r\n") == NULL)
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *c = s; *c != '\0'; c++)
    {
      if (*c == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *c);
    }
  g_string_append_c (out, '"');
}

void
jvms_event_value_append_text (GString *out, const JvmsEventValue *v,
                              const JvmsEventFieldInfo *field, gint64 trace_start)
{
  JvmsEventUnit unit = field != NULL ? field->unit : JVMS_EVENT_UNIT_NONE;
  switch (v->kind)
    {
    case JVMS_EVENT_VALUE_TIMESTAMP:
      {
        g_autofree char *s = jvms_time_format_instant (v->i, trace_start, JVMS_TIME_UNIT_AUTO,
                                                       JVMS_TIME_ORIGIN_TRACE_START, 0, TRUE);
        g_string_append (out, s);
        return;
      }
    case JVMS_EVENT_VALUE_TIMESPAN:
      {
        g_autofree char *s = jvms_time_format_duration (v->i, JVMS_TIME_UNIT_AUTO);
        g_string_append (out, s);
        return;
      }
    case JVMS_EVENT_VALUE_INT:
      if (unit == JVMS_EVENT_UNIT_BYTES && v->i >= 0)
        {
          g_autofree char *s = g_format_size ((guint64) v->i);
          g_string_append (out, s);
          return;
        }
      if (unit == JVMS_EVENT_UNIT_ADDRESS)
        {
          g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", (guint64) v->i);
          return;
        }
      break;
    case JVMS_EVENT_VALUE_DOUBLE:
      if (unit == JVMS_EVENT_UNIT_PERCENT && isfinite (v->d))
        {
          g_string_append_printf (out, "%.1f %%", v->d * 100);
          return;
        }
      if (unit == JVMS_EVENT_UNIT_BYTES && isfinite (v->d) && v->d >= 0)
        {
          g_autofree char *s = g_format_size ((guint64) v->d);
          g_string_append (out, s);
          return;
        }
      break;
    case JVMS_EVENT_VALUE_NULL:
      g_string_append (out, "—");
      return;
    default:
      break;
    }
  jvms_event_value_append_raw (out, v);
}
