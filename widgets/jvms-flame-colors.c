/* jvms-flame-colors.c: see the header. */
#include "jvms-flame-colors.h"

#include <string.h>

#define RGB(hex) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0, 1.0 }

/* Okabe & Ito, "Color Universal Design" (2008). */
static const JvmsColor okabe_ito[] = {
  RGB (0xE69F00), /* orange */
  RGB (0x56B4E9), /* sky blue */
  RGB (0x009E73), /* bluish green */
  RGB (0xF0E442), /* yellow */
  RGB (0x0072B2), /* blue */
  RGB (0xD55E00), /* vermillion */
  RGB (0xCC79A7), /* reddish purple */
};
enum { ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE };

/* Towards white by @amount: fills light enough for dark text. In the dark theme less so, so
 * that the graph does not glare, but still well above the text's luminance. */
static JvmsColor
fill (const JvmsPalette *palette, JvmsColor c, double amount)
{
  double a = palette->dark ? amount * 0.6 : amount;
  JvmsColor out = { c.r + (1 - c.r) * a, c.g + (1 - c.g) * a, c.b + (1 - c.b) * a, 1 };
  return out;
}

JvmsFrameKind
jvms_flame_dominant_kind (guint32 frame_kinds)
{
  static const JvmsFrameKind order[] = {
    JVMS_FRAME_KIND_JIT, JVMS_FRAME_KIND_INLINED, JVMS_FRAME_KIND_INTERPRETED,
    JVMS_FRAME_KIND_NATIVE, JVMS_FRAME_KIND_CPP, JVMS_FRAME_KIND_KERNEL,
  };
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (frame_kinds & (1u << order[i]))
      return order[i];
  return JVMS_FRAME_KIND_UNKNOWN;
}

JvmsColor
jvms_flame_color_for_kind (const JvmsPalette *palette, JvmsFrameKind kind)
{
  switch (kind)
    {
    case JVMS_FRAME_KIND_JIT: return fill (palette, okabe_ito[GREEN], 0.45);
    case JVMS_FRAME_KIND_INLINED: return fill (palette, okabe_ito[SKY], 0.35);
    case JVMS_FRAME_KIND_INTERPRETED: return fill (palette, okabe_ito[ORANGE], 0.35);
    case JVMS_FRAME_KIND_NATIVE: return fill (palette, okabe_ito[PURPLE], 0.35);
    case JVMS_FRAME_KIND_CPP: return fill (palette, okabe_ito[YELLOW], 0.25);
    case JVMS_FRAME_KIND_KERNEL: return fill (palette, okabe_ito[VERMILLION], 0.45);
    case JVMS_FRAME_KIND_UNKNOWN:
    default:
      return jvms_flame_color_neutral (palette);
    }
}

gsize
jvms_flame_package_length (const char *method)
{
  for (const char *p = method; *p != '\0'; p++)
    if ((p == method || p[-1] == '.') && (g_ascii_isupper (*p) || *p == '$'))
      return p == method ? 0 : (gsize) (p - method - 1);
  /* No class by the convention: the parts before the last two. */
  const char *last = strrchr (method, '.');
  const char *end = method;
  for (const char *p = method; last != NULL && p < last; p++)
    if (*p == '.')
      end = p;
  return (gsize) (end - method);
}

JvmsColor
jvms_flame_color_for_method (const JvmsPalette *palette, const char *method)
{
  if (method == NULL || *method == '\0' || *method == '[')
    return jvms_flame_color_neutral (palette);
  gsize length = jvms_flame_package_length (method);
  guint hash = 5381;
  for (gsize i = 0; i < length; i++)
    hash = hash * 33 + (guchar) method[i];
  JvmsColor hue = okabe_ito[hash % G_N_ELEMENTS (okabe_ito)];
  /* Three lightnesses per hue: neighbouring packages of one hue still differ. */
  double amount = 0.25 + 0.15 * ((hash / G_N_ELEMENTS (okabe_ito)) % 3);
  return fill (palette, hue, amount);
}

JvmsColor
jvms_flame_color_for_states (const JvmsPalette *palette, const guint64 *states)
{
  guint64 on = states[JVMS_CPU_STATE_ON_CPU], waiting = states[JVMS_CPU_STATE_WAITING];
  guint64 unknown = states[JVMS_CPU_STATE_UNKNOWN];
  JvmsColor grey = jvms_flame_color_neutral (palette);
  if (on + waiting == 0)
    return grey;
  /* Blue and orange: the pair the deficiencies leave most apart; towards grey by the share of
   * samples whose state is unknown, so that a few known ones do not colour the whole frame. */
  double t = (double) waiting / (double) (on + waiting);
  double known = (double) (on + waiting) / (double) (on + waiting + unknown);
  JvmsColor a = fill (palette, okabe_ito[BLUE], 0.45), b = fill (palette, okabe_ito[ORANGE], 0.2);
  JvmsColor c = { a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, 1 };
  JvmsColor out = { grey.r + (c.r - grey.r) * known, grey.g + (c.g - grey.g) * known,
                    grey.b + (c.b - grey.b) * known, 1 };
  return out;
}

JvmsColor
jvms_flame_color_neutral (const JvmsPalette *palette)
{
  JvmsColor grey = palette->dark ? (JvmsColor) { 0.62, 0.62, 0.62, 1 } : (JvmsColor) { 0.86, 0.86, 0.86, 1 };
  return grey;
}

JvmsColor
jvms_flame_color_text (const JvmsPalette *palette)
{
  JvmsColor text = { 0.08, 0.08, 0.08, 1 };
  return text;
}
