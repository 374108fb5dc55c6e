/* jvms-palette.c: see docs/views.md for why each state has its colour. */
#include "jvms-palette.h"

#include <adwaita.h>
#include <math.h>

#include "jvms-state-names.h"

#define RGB(hex) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0, 1.0 }

/* Okabe & Ito, "Color Universal Design" (2008). */
enum
{
  OI_ORANGE = 0xE69F00,
  OI_SKY = 0x56B4E9,
  OI_GREEN = 0x009E73,
  OI_YELLOW = 0xF0E442,
  OI_BLUE = 0x0072B2,
  OI_VERMILLION = 0xD55E00,
  OI_PURPLE = 0xCC79A7,
};

static const JvmsPalette light = {
  .dark = FALSE,
  .background = RGB (0xFFFFFF),
  .gutter = RGB (0xF2F2F2),
  .foreground = RGB (0x1E1E1E),
  .dim_text = RGB (0x6E6E6E),
  .grid = { 0, 0, 0, 0.10 },
  .lane_empty = { 0, 0, 0, 0.04 },
  /* A cool grey, apart from Off CPU's neutral one: no data, not a state. */
  .not_recorded = { 0.55, 0.58, 0.72, 0.22 },
  .mixed_mark = { 0.1, 0.1, 0.1, 0.85 },
  .selection = { 0.21, 0.52, 0.89, 0.22 },
  .selection_edge = RGB (0x1C71D8),
  .hover = { 0, 0, 0, 0.55 },
  .highlight = RGB (0xD55E00),
  .line_a = RGB (0x0072B2),
  .line_b = RGB (0xE69F00),
};

static const JvmsPalette dark = {
  .dark = TRUE,
  .background = RGB (0x1E1E1E),
  .gutter = RGB (0x2A2A2A),
  .foreground = RGB (0xEEEEEE),
  .dim_text = RGB (0xA0A0A0),
  .grid = { 1, 1, 1, 0.12 },
  .lane_empty = { 1, 1, 1, 0.05 },
  .not_recorded = { 0.62, 0.66, 0.85, 0.22 },
  .mixed_mark = { 0.95, 0.95, 0.95, 0.85 },
  .selection = { 0.47, 0.68, 0.93, 0.25 },
  .selection_edge = RGB (0x78AEED),
  .hover = { 1, 1, 1, 0.6 },
  .highlight = RGB (0xF0A050),
  .line_a = RGB (0x56B4E9),
  .line_b = RGB (0xE69F00),
};

const JvmsPalette *
jvms_palette_get (gboolean is_dark)
{
  return is_dark ? &dark : &light;
}

gboolean
jvms_palette_system_is_dark (void)
{
  if (gdk_display_get_default () == NULL)
    return FALSE;
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

static JvmsColor
rgb (guint32 hex)
{
  JvmsColor c = RGB (hex);
  return c;
}

JvmsColor
jvms_palette_user_state (const JvmsPalette *palette,
                         gint64             state)
{
  JvmsColor c;

  switch (state)
    {
    case JVMS_USER_STATE_RUNNING: return rgb (OI_GREEN);
    case JVMS_USER_STATE_BLOCKED: return rgb (OI_VERMILLION);
    case JVMS_USER_STATE_WAITING: return rgb (OI_ORANGE);
    case JVMS_USER_STATE_PARKED:
      /* A lighter Waiting: both wait to be told to go on. */
      c = rgb (OI_ORANGE);
      c.a = 0.5;
      return c;
    case JVMS_USER_STATE_SLEEPING: return rgb (OI_SKY);
    case JVMS_USER_STATE_SOCKET_IO: return rgb (OI_PURPLE);
    case JVMS_USER_STATE_FILE_IO: return rgb (OI_BLUE);
    case JVMS_USER_STATE_SAFEPOINT:
      /* Stopped by the VM: the strongest contrast with the background. */
      c = palette->foreground;
      return c;
    case JVMS_USER_STATE_NATIVE:
      c = rgb (OI_GREEN);
      c.a = 0.45;
      return c;
    case JVMS_USER_STATE_NOT_RECORDED:
      return palette->not_recorded;
    default:
      return palette->lane_empty;
    }
}

JvmsColor
jvms_palette_kernel_state (const JvmsPalette *palette,
                           gint64             state)
{
  JvmsColor c;

  switch (state)
    {
    case JVMS_KERNEL_STATE_RUNNING: return rgb (OI_GREEN);
    case JVMS_KERNEL_STATE_RUNNABLE: return rgb (OI_YELLOW);
    case JVMS_KERNEL_STATE_SYSCALL:
      c = rgb (OI_BLUE);
      c.a = 0.5;
      return c;
    case JVMS_KERNEL_STATE_BLOCKED:
      /* Sleeping is the common, uninteresting case: a quiet grey. */
      c = palette->dark ? (JvmsColor) { 1, 1, 1, 0.22 } : (JvmsColor) { 0, 0, 0, 0.18 };
      return c;
    case JVMS_KERNEL_STATE_BLOCKED_IO:
      /* Waiting for a device: I/O's purple, lighter than the user lane's socket I/O. */
      c = rgb (OI_PURPLE);
      c.a = 0.55;
      return c;
    case JVMS_KERNEL_STATE_UNKNOWN:
      c = palette->foreground;
      c.a = 0.4;
      return c;
    case JVMS_KERNEL_STATE_EXITED:
    default:
      return palette->lane_empty;
    }
}

static JvmsColor
hsl (double h,
     double s,
     double l)
{
  double c = (1 - fabs (2 * l - 1)) * s;
  double hp = fmod (h, 1.0) * 6;
  double x = c * (1 - fabs (fmod (hp, 2) - 1));
  double m = l - c / 2;
  double r = 0, g = 0, b = 0;

  if (hp < 1) { r = c; g = x; }
  else if (hp < 2) { r = x; g = c; }
  else if (hp < 3) { g = c; b = x; }
  else if (hp < 4) { g = x; b = c; }
  else if (hp < 5) { r = x; b = c; }
  else { r = c; b = x; }
  return (JvmsColor) { r + m, g + m, b + m, 1.0 };
}

static guint32
mix (guint64 v)
{
  /* A few rounds of a 64-bit finalizer: neighbouring tids get unrelated colours. */
  v ^= v >> 33;
  v *= 0xff51afd7ed558ccdULL;
  v ^= v >> 33;
  v *= 0xc4ceb9fe1a85ec53ULL;
  v ^= v >> 33;
  return (guint32) v;
}

JvmsColor
jvms_palette_thread (const JvmsPalette *palette,
                     gint64             tid,
                     gboolean           other_process)
{
  guint32 h = mix ((guint64) tid);

  if (other_process)
    return hsl (0.6, 0.06, (palette->dark ? 0.38 : 0.62) + (h % 100) / 100.0 * 0.14);
  return hsl ((h % 3600) / 3600.0, 0.62 + (h >> 12) % 20 / 100.0,
              (palette->dark ? 0.55 : 0.45) + ((h >> 20) % 12) / 100.0);
}

JvmsColor
jvms_palette_cpu (const JvmsPalette *palette,
                  gint64             cpu)
{
  /* Starting away from the greens and yellows of on-CPU and runnable. */
  double hue = fmod (0.58 + (double) (cpu < 0 ? 0 : cpu) * 0.381966, 1.0);
  return hsl (hue, 0.70, palette->dark ? 0.60 : 0.48);
}

JvmsColor
jvms_palette_for_string (const JvmsPalette *palette,
                         const char        *value)
{
  if (value == NULL)
    return palette->lane_empty;
  return jvms_palette_thread (palette, g_str_hash (value), FALSE);
}
