/* jvms-flame-colors.h: the flame graph's fills, for light and dark themes.
 *
 * Hues from the Okabe-Ito set (as the rest of jvms-palette.h), which stay apart under the
 * common colour-vision deficiencies; fills are lightened so that the dark label text reads on
 * every one of them in both themes (docs/profile.md, "The profiler pane"). */
#pragma once

#include "jvms-call-tree.h"
#include "jvms-palette.h"

G_BEGIN_DECLS

/* Which kind a frame of @frame_kinds (bits 1 << JvmsFrameKind) is drawn as: compiled code
 * first (the steady state), then interpreted, native, C++, kernel. */
JvmsFrameKind jvms_flame_dominant_kind   (guint32            frame_kinds);
JvmsColor     jvms_flame_color_for_kind  (const JvmsPalette *palette,
                                          JvmsFrameKind      kind);
/* The length of @method's package ("java.util" of "java.util.HashMap.get"; 0 for none).
 * Packages are lower case and classes capitalised, by Java's convention: the class begins at
 * the first capitalised part, so that a hidden class's suffix ("demo.Demo$$Lambda$7+0x1.2.run")
 * stays with its class. Without a capitalised part, all but the last two parts. */
gsize         jvms_flame_package_length  (const char        *method);
/* A hue per package: "java.util.HashMap.get" is coloured by "java.util". Pseudo-frames
 * ("[unknown]") and the root are grey. */
JvmsColor     jvms_flame_color_for_method (const JvmsPalette *palette,
                                           const char        *method);
/* From the on-CPU colour to the waiting colour by the share of samples that waited, and
 * towards grey by the share whose state is unknown (@states: JvmsCpuState counts). */
JvmsColor     jvms_flame_color_for_states (const JvmsPalette *palette,
                                           const guint64     *states);
/* Frames greyed by a search they do not match, and the root. */
JvmsColor     jvms_flame_color_neutral    (const JvmsPalette *palette);
/* The label colour on every fill above. */
JvmsColor     jvms_flame_color_text       (const JvmsPalette *palette);

G_END_DECLS
