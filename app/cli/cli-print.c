/* jvmscope-cli print: every field of every event of a JFR file as JSON, in the shape that
 * `jfr print --json` uses, so the two can be compared field by field:
 *
 *   {"recording": {"events": [{"type": NAME, "values": {FIELD: VALUE, …}}, …]}}
 *
 * Values as the JDK prints them: @Timestamp fields as ISO-8601 date-times in UTC
 * ("2026-11-24T01:02:45.401198730Z"), @Timespan fields as java.time.Duration strings
 * ("PT0.001265443S"), constant-pool references resolved to the full nested object, simple
 * types (Symbol, GCName…) as their single value, class and package names in the internal
 * form the file holds ("java/lang/String"), stack traces cut to --stack-depth frames (5 by
 * default, like jfr print). Integers print as the signed Java type. Floats are printed with
 * the shortest decimal that reads back to the same value, which is close to, but not always
 * identical with, Java's Float.toString/Double.toString. Events come in time order.
 *
 * Bounds. Constants may refer to each other: a reference back to a constant being printed (a
 * cycle) prints null, as the JDK prints a constant that refers to itself; and an event prints
 * at most JVMS_PRINT_MAX_VALUES values (more with a deep --stack-depth, see print_limit), each
 * string and field name also counting one value per 64 bytes, the rest left out with a warning
 * naming the event: a DAG of constants, each referring three times to the next, would
 * otherwise print 3^levels values for a few hundred bytes. So an event prints at most about
 * 15 MB (100,000 values of at most the nesting's indentation, a name and 64 bytes of text).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli-commands.h"
#include "jvms-jfr.h"

/* Values one event may print; see print_limit. Real events print a few hundred. */
#define JVMS_PRINT_MAX_VALUES 100000

typedef struct
{
  const JvmsJfrType *type;
  guint64            key;
} PoolRef;

typedef struct
{
  FILE    *out;
  guint    indent;
  gint     stack_depth;
  guint64  limit;     /* values per event */
  guint64  left;      /* of the current event */
  GArray  *chain;     /* PoolRef: the constants being printed, outermost first */
  guint64  n_cut;     /* events cut */
  GString *cut_notes; /* the first few of them, for the warning */
} Printer;

/* The values an event may print: JVMS_PRINT_MAX_VALUES, or about 40 per frame of the deepest
 * stack --stack-depth lets through (a frame is a method, its class, package, module, loader). */
static guint64
print_limit (gint stack_depth)
{
  return MAX ((guint64) JVMS_PRINT_MAX_VALUES, (guint64) stack_depth * 64);
}

/* Takes one value from the event's allowance; FALSE (and prints null) when none is left. */
static gboolean
take_value (Printer *p)
{
  if (p->left == 0)
    {
      fputs ("null", p->out);
      return FALSE;
    }
  p->left--;
  return TRUE;
}

/* Text of @len bytes (a string, a field name) takes a value from the allowance per 64 bytes. */
static void
take_text (Printer *p, gsize len)
{
  p->left -= MIN (p->left, (guint64) (len / 64));
}

static gboolean
on_chain (const Printer *p, const JvmsJfrValue *v)
{
  for (guint i = 0; i < p->chain->len; i++)
    {
      const PoolRef *r = &g_array_index (p->chain, PoolRef, i);
      if (r->type == v->type && r->key == v->pool_key)
        return TRUE;
    }
  return FALSE;
}

static void
print_indent (Printer *p)
{
  for (guint i = 0; i < p->indent; i++)
    fputs ("  ", p->out);
}

/* Escapes like the JDK's JSONWriter: non-ASCII as \uXXXX UTF-16 units, and '/' too. */
static void
print_string (Printer *p, const char *s)
{
  FILE *out = p->out;
  fputc ('"', out);
  for (const char *c = s; *c != '\0'; c = g_utf8_next_char (c))
    {
      gunichar u = g_utf8_get_char (c);
      switch (u)
        {
        case '\b': fputs ("\\b", out); break;
        case '\n': fputs ("\\n", out); break;
        case '\t': fputs ("\\t", out); break;
        case '\f': fputs ("\\f", out); break;
        case '\r': fputs ("\\r", out); break;
        case '"': fputs ("\\\"", out); break;
        case '\\': fputs ("\\\\", out); break;
        case '/': fputs ("\\/", out); break;
        default:
          if (u > 0xFFFF)
            {
              gunichar v = u - 0x10000;
              fprintf (out, "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
            }
          else if (u > 0x7F || u < 32)
            fprintf (out, "\\u%04x", u);
          else
            fputc ((int) u, out);
        }
    }
  fputc ('"', out);
}

/* java.time.Duration.toString() of @ns nanoseconds. */
static void
print_duration_value (Printer *p, gint64 seconds, gint64 nanos)
{
  GString *s = g_string_new ("\"PT");
  if (seconds == 0 && nanos == 0)
    g_string_append (s, "0S");
  else
    {
      gint64 hours = seconds / 3600;
      gint64 minutes = (seconds % 3600) / 60;
      gint64 secs = seconds % 60;
      if (hours != 0)
        g_string_append_printf (s, "%" G_GINT64_FORMAT "H", hours);
      if (minutes != 0)
        g_string_append_printf (s, "%" G_GINT64_FORMAT "M", minutes);
      if (!(secs == 0 && nanos == 0 && s->len > 3))
        {
          if (secs < 0 && nanos > 0)
            {
              if (secs == -1)
                g_string_append (s, "-0");
              else
                g_string_append_printf (s, "%" G_GINT64_FORMAT, secs + 1);
            }
          else
            g_string_append_printf (s, "%" G_GINT64_FORMAT, secs);
          if (nanos > 0)
            {
              gint64 frac = secs < 0 ? 2 * 1000000000LL - nanos : nanos + 1000000000LL;
              char digits[32];
              g_snprintf (digits, sizeof digits, "%" G_GINT64_FORMAT, frac);
              gsize len = strlen (digits);
              while (len > 1 && digits[len - 1] == '0')
                len--;
              digits[len] = '\0';
              g_string_append_c (s, '.');
              g_string_append (s, digits + 1);
            }
          g_string_append_c (s, 'S');
        }
    }
  g_string_append_c (s, '"');
  fputs (s->str, p->out);
  g_string_free (s, TRUE);
}

static void
print_duration_ns (Printer *p, gint64 ns)
{
  /* floor division, as Duration.ofNanos */
  gint64 seconds = ns / 1000000000;
  gint64 nanos = ns % 1000000000;
  if (nanos < 0)
    {
      nanos += 1000000000;
      seconds--;
    }
  print_duration_value (p, seconds, nanos);
}

/* OffsetDateTime.toString() in UTC. */
static void
print_instant (Printer *p, gint64 epoch_seconds, gint64 nanos)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (epoch_seconds);
  if (dt == NULL)
    {
      fprintf (p->out, "\"%" G_GINT64_FORMAT "s\"", epoch_seconds);
      return;
    }
  int year = g_date_time_get_year (dt);
  int sec = g_date_time_get_second (dt);
  fprintf (p->out, year > 9999 ? "\"+%d" : "\"%04d", year);
  fprintf (p->out, "-%02d-%02dT%02d:%02d", g_date_time_get_month (dt),
           g_date_time_get_day_of_month (dt), g_date_time_get_hour (dt),
           g_date_time_get_minute (dt));
  if (sec != 0 || nanos != 0)
    fprintf (p->out, ":%02d", sec);
  if (nanos != 0)
    {
      if (nanos % 1000000 == 0)
        fprintf (p->out, ".%03d", (int) (nanos / 1000000));
      else if (nanos % 1000 == 0)
        fprintf (p->out, ".%06d", (int) (nanos / 1000));
      else
        fprintf (p->out, ".%09d", (int) nanos);
    }
  fputs ("Z\"", p->out);
}

static void
print_epoch_ns (Printer *p, gint64 ns)
{
  gint64 s = ns / 1000000000, n = ns % 1000000000;
  if (n < 0)
    {
      n += 1000000000;
      s--;
    }
  print_instant (p, s, n);
}

/* The shortest decimal that reads back as the same float/double, in Java's layout:
 * plain notation for 1e-3 <= |x| < 1e7 (always with a fraction), otherwise d.dddE±n. */
static void
print_float (Printer *p, double v, gboolean is_float)
{
  if (isnan (v) || isinf (v))
    {
      fputs ("null", p->out);
      return;
    }
  if (v == 0)
    {
      fputs (signbit (v) ? "-0.0" : "0.0", p->out);
      return;
    }
  char buf[64];
  int max = is_float ? 9 : 17;
  for (int prec = 1; prec <= max; prec++)
    {
      g_snprintf (buf, sizeof buf, "%.*e", prec - 1, v);
      if (is_float ? (float) g_ascii_strtod (buf, NULL) == (float) v : g_ascii_strtod (buf, NULL) == v)
        break;
    }
  /* buf = [-]d.ddde[+-]xx */
  char *e = strchr (buf, 'e');
  int exp10 = atoi (e + 1);
  *e = '\0';
  GString *digits = g_string_new (NULL);
  gboolean negative = buf[0] == '-';
  for (char *c = buf + (negative ? 1 : 0); *c; c++)
    if (*c != '.')
      g_string_append_c (digits, *c);
  while (digits->len > 1 && digits->str[digits->len - 1] == '0')
    g_string_truncate (digits, digits->len - 1);
  double mag = fabs (v);
  GString *s = g_string_new (negative ? "-" : "");
  if (mag >= 1e-3 && mag < 1e7)
    {
      if (exp10 >= 0)
        {
          for (int i = 0; i <= exp10; i++)
            g_string_append_c (s, i < (int) digits->len ? digits->str[i] : '0');
          g_string_append_c (s, '.');
          if ((int) digits->len > exp10 + 1)
            g_string_append (s, digits->str + exp10 + 1);
          else
            g_string_append_c (s, '0');
        }
      else
        {
          g_string_append (s, "0.");
          for (int i = 0; i < -exp10 - 1; i++)
            g_string_append_c (s, '0');
          g_string_append (s, digits->str);
        }
    }
  else
    {
      g_string_append_c (s, digits->str[0]);
      g_string_append_c (s, '.');
      g_string_append (s, digits->len > 1 ? digits->str + 1 : "0");
      g_string_append_printf (s, "E%d", exp10);
    }
  fputs (s->str, p->out);
  g_string_free (s, TRUE);
  g_string_free (digits, TRUE);
}

static void print_object (Printer *p, const JvmsJfrObject *object, guint depth);

static gboolean
is_flattened (const JvmsJfrType *type)
{
  return jvms_jfr_type_is_simple (type) && jvms_jfr_type_get_n_fields (type) == 1;
}

/* One value of @field (not an array as a whole), as the JDK prints it. */
static void
print_value (Printer *p, const JvmsJfrField *field, const JvmsJfrValue *v, guint depth)
{
  if (!take_value (p))
    return;
  switch (v->kind)
    {
    case JVMS_JFR_VALUE_NULL:
      fputs ("null", p->out);
      return;
    case JVMS_JFR_VALUE_BOOLEAN:
      fputs (v->b ? "true" : "false", p->out);
      return;
    case JVMS_JFR_VALUE_INTEGER:
      if (jvms_jfr_type_get_kind (v->type) == JVMS_JFR_KIND_CHAR)
        {
          char utf8[8] = { 0 };
          g_unichar_to_utf8 ((gunichar) v->u, utf8);
          print_string (p, utf8);
        }
      else
        fprintf (p->out, "%" G_GINT64_FORMAT, v->i);
      return;
    case JVMS_JFR_VALUE_FLOAT:
      print_float (p, v->d, jvms_jfr_type_get_kind (v->type) == JVMS_JFR_KIND_FLOAT);
      return;
    case JVMS_JFR_VALUE_STRING:
      take_text (p, strlen (v->s));
      print_string (p, v->s);
      return;
    case JVMS_JFR_VALUE_OBJECT:
      if (is_flattened (v->type))
        {
          JvmsJfrValue inner;
          const JvmsJfrField *f = jvms_jfr_type_get_field (v->type, 0);
          if (!jvms_jfr_object_get_value (&v->object, f, &inner) || f == NULL)
            fputs ("null", p->out);
          else if (jvms_jfr_field_is_array (f))
            fputs ("null", p->out);
          else
            print_value (p, f, &inner, depth + 1);
          return;
        }
      if (depth > 32 || (v->from_pool && on_chain (p, v)))
        {
          /* a reference cycle between constants */
          fputs ("null", p->out);
          return;
        }
      if (v->from_pool)
        {
          PoolRef r = { v->type, v->pool_key };
          g_array_append_val (p->chain, r);
        }
      print_object (p, &v->object, depth + 1);
      if (v->from_pool)
        g_array_set_size (p->chain, p->chain->len - 1);
      return;
    case JVMS_JFR_VALUE_ARRAY:
    default:
      fputs ("null", p->out);
      return;
    }
}

static void
print_field (Printer *p, const JvmsJfrObject *object, const JvmsJfrField *field, guint depth)
{
  if (p->left == 0)
    {
      fputs ("null", p->out);
      return;
    }
  JvmsJfrValue v;
  gboolean ok = jvms_jfr_object_get_value (object, field, &v);
  if (!ok)
    {
      fputs ("null", p->out);
      return;
    }
  JvmsJfrUnit unit = jvms_jfr_field_get_unit (field);
  if (v.kind == JVMS_JFR_VALUE_INTEGER && !jvms_jfr_field_is_array (field))
    {
      if (unit >= JVMS_JFR_UNIT_TIMESPAN_TICKS && unit <= JVMS_JFR_UNIT_TIMESPAN_S)
        {
          /* as JDK 17's RecordedObject.getDuration: 0 and Long.MIN_VALUE are special, the
           * units convert with Java's (wrapping) long arithmetic */
          gint64 x = v.i, ns;
          if (x == 0)
            print_duration_value (p, 0, 0);
          else if (x == G_MININT64)
            print_duration_value (p, G_MININT64, 0);
          else if (unit == JVMS_JFR_UNIT_TIMESPAN_S)
            print_duration_value (p, x, 0);
          else if (unit == JVMS_JFR_UNIT_TIMESPAN_MS)
            {
              gint64 s = x / 1000, r = x % 1000;
              if (r < 0)
                {
                  r += 1000;
                  s--;
                }
              print_duration_value (p, s, r * 1000000);
            }
          else if (unit == JVMS_JFR_UNIT_TIMESPAN_US)
            print_duration_ns (p, (gint64) ((guint64) x * 1000u));
          else if (unit == JVMS_JFR_UNIT_TIMESPAN_NS)
            print_duration_ns (p, x);
          else if (jvms_jfr_object_get_time_ns (object, field, &ns))
            print_duration_ns (p, ns);
          else
            fputs ("null", p->out);
          return;
        }
      if (unit == JVMS_JFR_UNIT_TIMESTAMP_TICKS || unit == JVMS_JFR_UNIT_TIMESTAMP_MS_EPOCH)
        {
          gint64 ns;
          if (v.i == G_MININT64)
            fputs ("\"-999999999-01-01T00:00+18:00\"", p->out);
          else if (unit == JVMS_JFR_UNIT_TIMESTAMP_MS_EPOCH)
            {
              gint64 s = v.i / 1000, r = v.i % 1000;
              if (r < 0)
                {
                  r += 1000;
                  s--;
                }
              print_instant (p, s, r * 1000000);
            }
          else if (jvms_jfr_object_get_time_ns (object, field, &ns))
            print_epoch_ns (p, ns);
          else
            fputs ("null", p->out);
          return;
        }
    }
  if (v.kind == JVMS_JFR_VALUE_ARRAY)
    {
      gboolean frames = strcmp (jvms_jfr_type_get_name (v.type), "jdk.types.StackFrame") == 0;
      JvmsJfrArrayIter iter;
      JvmsJfrValue element;
      gint n = 0;
      fputc ('[', p->out);
      jvms_jfr_array_iter_init (&iter, &v);
      while (jvms_jfr_array_iter_next (&iter, &element))
        {
          if ((frames && n >= p->stack_depth) || p->left == 0)
            break;
          if (n++ > 0)
            fputs (", ", p->out);
          print_value (p, field, &element, depth);
        }
      fputc (']', p->out);
      return;
    }
  print_value (p, field, &v, depth);
}

static void
print_object (Printer *p, const JvmsJfrObject *object, guint depth)
{
  fputs ("{\n", p->out);
  p->indent++;
  guint n = jvms_jfr_type_get_n_fields (object->type);
  for (guint i = 0; i < n; i++)
    {
      const JvmsJfrField *field = jvms_jfr_type_get_field (object->type, i);
      if (p->left == 0)
        break;   /* cut: the fields left are not printed at all */
      if (i > 0)
        fputs (", \n", p->out);
      print_indent (p);
      const char *name = jvms_jfr_field_get_name (field);
      fprintf (p->out, "\"%s\": ", name);
      take_text (p, strlen (name));
      print_field (p, object, field, depth);
    }
  p->indent--;
  fputc ('\n', p->out);
  print_indent (p);
  fputc ('}', p->out);
}

static gboolean
wanted (const JvmsJfrType *type, GStrv filters, GHashTable *decided)
{
  if (filters == NULL)
    return TRUE;
  gpointer cached;
  if (g_hash_table_lookup_extended (decided, type, NULL, &cached))
    return GPOINTER_TO_INT (cached);
  const char *name = jvms_jfr_type_get_name (type);
  gboolean yes = FALSE;
  for (guint i = 0; filters[i] != NULL && !yes; i++)
    {
      const char *f = filters[i];
      /* like jfr print: a full name, a name without the "jdk." prefix, or a glob */
      yes = strcmp (f, name) == 0 || (g_str_has_prefix (name, "jdk.") && strcmp (f, name + 4) == 0)
            || g_pattern_match_simple (f, name);
    }
  g_hash_table_insert (decided, (gpointer) type, GINT_TO_POINTER (yes));
  return yes;
}

int
jvms_cli_print (int argc, char **argv)
{
  gboolean json = FALSE;
  char *events = NULL;
  gint stack_depth = 5;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON (the only format so far)"), NULL },
    { "events", 0, 0, G_OPTION_ARG_STRING, &events, N_("Only events of these types (comma-separated names or globs)"), N_("TYPES") },
    { "stack-depth", 0, 0, G_OPTION_ARG_INT, &stack_depth, N_("Print at most this many frames of each stack trace (default 5)"), N_("N") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("FILE — print every field of every event of a JFR file"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli print: %s\n", error->message);
      g_free (events);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL || !json)
    {
      g_printerr ("%s\n", _("Usage: jvmscope-cli print FILE [--events TYPE,...] [--stack-depth N] --json"));
      g_free (events);
      return 2;
    }
  g_auto(GStrv) filters = events ? g_strsplit (events, ",", -1) : NULL;
  g_free (events);

  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open (files[0], &error);
  if (file == NULL)
    {
      g_printerr ("jvmscope-cli print: %s\n", error->message);
      return 1;
    }

  Printer p = { .out = stdout, .indent = 0, .stack_depth = MAX (stack_depth, 0) };
  p.limit = print_limit (p.stack_depth);
  p.chain = g_array_new (FALSE, FALSE, sizeof (PoolRef));
  p.cut_notes = g_string_new (NULL);
  static char buffer[1 << 16];
  setvbuf (stdout, buffer, _IOFBF, sizeof buffer);
  g_autoptr(GHashTable) decided = g_hash_table_new (g_direct_hash, g_direct_equal);
  fputs ("{\n  \"recording\": {\n    \"events\": [", stdout);
  p.indent = 3;
  guint64 n = 0;
  {
    g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_TIME);
    const JvmsJfrEvent *event;
    while ((event = jvms_jfr_reader_next (reader)) != NULL)
      {
        const JvmsJfrType *type = jvms_jfr_event_get_type (event);
        if (!wanted (type, filters, decided))
          continue;
        if (n++ > 0)
          fputs (", ", stdout);
        fputs ("{\n", stdout);
        p.indent++;
        print_indent (&p);
        fputs ("\"type\": ", stdout);
        print_string (&p, jvms_jfr_type_get_name (type));
        fputs (", \n", stdout);
        print_indent (&p);
        fputs ("\"values\": ", stdout);
        JvmsJfrObject object;
        jvms_jfr_event_get_object (event, &object);
        p.left = p.limit;
        print_object (&p, &object, 0);
        if (p.left == 0)
          {
            if (p.n_cut++ < 3)
              g_string_append_printf (p.cut_notes, "%s%s at offset %" G_GUINT64_FORMAT,
                                      p.n_cut > 1 ? ", " : "", jvms_jfr_type_get_name (type),
                                      jvms_jfr_event_get_file_offset (event));
          }
        p.indent--;
        fputc ('\n', stdout);
        print_indent (&p);
        fputc ('}', stdout);
      }
  }
  fputs ("]\n  }\n}\n", stdout);
  fflush (stdout);

  const GPtrArray *warnings = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < warnings->len; i++)
    g_printerr (_("warning: %s\n"), ((const JvmsJfrWarning *) g_ptr_array_index (warnings, i))->message);
  if (p.n_cut > 0)
    {
      /* Numbers formatted outside the translatable string: xgettext cannot read a message
       * that G_GUINT64_FORMAT splits. */
      g_autofree char *n_cut = g_strdup_printf ("%" G_GUINT64_FORMAT, p.n_cut);
      g_autofree char *limit = g_strdup_printf ("%" G_GUINT64_FORMAT, p.limit);
      /* Translators: a file name, a count of events, a count of values, then where they are. */
      g_printerr (_("warning: %s: %s events printed only their first %s values, the rest left out (the limit per event: their constants refer to each other many times over): %s%s\n"),
                  files[0], n_cut, limit, p.cut_notes->str, p.n_cut > 3 ? ", …" : "");
    }
  g_array_unref (p.chain);
  g_string_free (p.cut_notes, TRUE);
  return warnings->len > 0 || p.n_cut > 0 ? 3 : 0;
}
