/* cli-time.c: time arguments, in exact integer nanoseconds. */
#include "config.h"

#include "cli-time.h"

#include <glib/gi18n.h>
#include <string.h>

G_DEFINE_QUARK (jvms-cli-time-error-quark, jvms_cli_time_error)

static const struct
{
  const char *suffix;
  gint64      ns;     /* nanoseconds in one unit */
  guint       digits; /* fraction digits below it that are whole nanoseconds */
} units[] = {
  { "", 1000000000, 9 }, { "s", 1000000000, 9 }, { "ms", 1000000, 6 }, { "us", 1000, 3 },
  { "µs", 1000, 3 }, { "ns", 1, 0 },
};

static gboolean
not_a_time (const char *option, const char *text, GError **error)
{
  g_autofree char *shown = g_utf8_make_valid (text, -1);
  /* Translators: "--to: “-1” is not a time: a number of seconds, or a number followed by s,
   * ms, us or ns". */
  g_set_error (error, jvms_cli_time_error_quark (), 0, _("%s: “%s” is not a time: %s"), option,
               shown, _(JVMS_CLI_TIME_HELP));
  return FALSE;
}

gboolean
jvms_cli_time_parse (const char *option, const char *text, gint64 *out, GError **error)
{
  const char *p = text;
  guint64 whole = 0;
  gboolean overflow = FALSE, any = FALSE;
  while (g_ascii_isdigit (*p))
    {
      overflow |= whole > (G_MAXUINT64 - 9) / 10;
      whole = whole * 10 + (guint64) (*p++ - '0');
      any = TRUE;
    }
  const char *fraction = NULL;
  gsize n_fraction = 0;
  if (*p == '.')
    {
      fraction = ++p;
      while (g_ascii_isdigit (*p))
        p++;
      n_fraction = (gsize) (p - fraction);
      any |= n_fraction > 0;
    }
  if (!any)
    return not_a_time (option, text, error);
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    {
      if (strcmp (p, units[i].suffix) != 0)
        continue;
      /* The whole units, then the fraction's digits that are whole nanoseconds (a finer part
       * is dropped, as a truncation would). */
      guint64 ns = 0;
      if (overflow || __builtin_mul_overflow (whole, (guint64) units[i].ns, &ns))
        overflow = TRUE;
      guint64 part = 0, scale = (guint64) units[i].ns;
      for (gsize d = 0; d < n_fraction && d < units[i].digits; d++)
        {
          scale /= 10;
          part += (guint64) (fraction[d] - '0') * scale;
        }
      if (overflow || __builtin_add_overflow (ns, part, &ns) || ns > (guint64) G_MAXINT64)
        {
          g_autofree char *shown = g_utf8_make_valid (text, -1);
          /* Translators: "--to: “99999999999s” is further than the time axis reaches". */
          g_set_error (error, jvms_cli_time_error_quark (), 0,
                       _("%s: “%s” is further than the time axis reaches (292 years)"), option, shown);
          return FALSE;
        }
      *out = (gint64) ns;
      return TRUE;
    }
  return not_a_time (option, text, error);
}

gboolean
jvms_cli_time_range_parse_named (const char *from_option, const char *from, const char *to_option,
                                 const char *to, gint64 *from_offset, gint64 *to_offset,
                                 GError **error)
{
  *from_offset = 0;
  *to_offset = G_MAXINT64;
  if ((from != NULL && !jvms_cli_time_parse (from_option, from, from_offset, error))
      || (to != NULL && !jvms_cli_time_parse (to_option, to, to_offset, error)))
    return FALSE;
  if (*from_offset > *to_offset)
    {
      g_autofree char *from_shown = g_utf8_make_valid (from, -1);
      g_autofree char *to_shown = g_utf8_make_valid (to, -1);
      /* Translators: "--from 3s is after --to 2s": an option, its value, the other option and
       * its value. */
      g_set_error (error, jvms_cli_time_error_quark (), 0, _("%s %s is after %s %s"),
                   from_option, from_shown, to_option, to_shown);
      return FALSE;
    }
  return TRUE;
}

gboolean
jvms_cli_time_range_parse (const char *from, const char *to, gint64 *from_offset,
                           gint64 *to_offset, GError **error)
{
  return jvms_cli_time_range_parse_named ("--from", from, "--to", to, from_offset, to_offset, error);
}

gint64
jvms_cli_time_at (gint64 start, gint64 offset)
{
  gint64 t;
  return __builtin_add_overflow (start, offset, &t) ? G_MAXINT64 : t;
}
