/* jvms-bundle-manifest.h: a bundle's bundle.json (docs/recording.md), read within bounds.
 *
 * bundle.json is the one part of a bundle parsed as text, by json-glib, whose parser recurses
 * once per nesting level (200,000 nested arrays overflow the stack) and reads the whole file.
 * Before the parser sees anything the file must be a regular file (readers/file), of at most
 * JVMS_BUNDLE_MANIFEST_MAX_BYTES, nested at most JVMS_BUNDLE_MANIFEST_MAX_DEPTH levels (strings,
 * single-quoted strings and comments skipped as json-glib skips them) and holding at most
 * JVMS_BUNDLE_MANIFEST_MAX_BRACKETS brackets in all (which bounds the parser's recursion even if
 * the depth scan and json-glib ever disagreed on what is a string). The recorder writes about
 * 4 KB nested 4 levels deep. Past any bound the bundle opens without its metadata, and the
 * error says why.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_BUNDLE_MANIFEST_MAX_BYTES    (1024 * 1024)
#define JVMS_BUNDLE_MANIFEST_MAX_DEPTH    64
#define JVMS_BUNDLE_MANIFEST_MAX_BRACKETS 10000

/* What the indexer takes from bundle.json. */
typedef struct
{
  gint64   pid;               /* "pid", or -1 */
  gboolean have_offset;       /* clock.jfr_ticks_to_monotonic_offset_ns was an integer */
  gint64   offset;
  gint64   uncertainty;       /* clock.uncertainty_ns, or 0 */
  char    *method;            /* clock.method, or NULL */
  gboolean attach;            /* "mode" is "attach": the kernel recording covers JFR's with margins */
} JvmsBundleManifest;

/* Reads @path (a bundle's bundle.json) into @out. FALSE with @error in G_IO_ERROR naming the
 * path and what is wrong: not a regular file, too large, nested too deep, not valid JSON, not
 * a JSON object; @out then holds the defaults. */
gboolean jvms_bundle_manifest_read  (const char          *path,
                                     JvmsBundleManifest  *out,
                                     GError             **error);
void     jvms_bundle_manifest_clear (JvmsBundleManifest  *manifest);

G_END_DECLS
