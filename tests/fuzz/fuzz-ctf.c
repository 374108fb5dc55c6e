/* libFuzzer target: the CTF reader (our wrapper around libbabeltrace2) on a stream file made of
 * the input, beside the metadata of the written test trace, in a temporary trace folder.
 *
 *   JVMS_FUZZ_CTF_SEEDS=DIR  write the seed stream files into DIR first
 *   JVMS_FUZZ_CTF_TRACE=DIR  take the metadata from this trace instead
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "ctf-synthetic.h"
#include "jvms-ctf.h"

/* Enough to walk a whole small input; a reader that loops would be caught by -timeout. */
#define MAX_EVENTS 1000000

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* babeltrace2 2.0's TSDL parser leaks on syntax errors; the metadata here is fixed, but keep
 * LeakSanitizer on our code only. */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:yyparse\n";
}

static char *root;
static char *trace;
static char *stream;

static void
remove_root (void)
{
  g_autofree char *metadata = g_build_filename (trace, "metadata", NULL);
  g_unlink (stream);
  g_unlink (metadata);
  g_rmdir (trace);
  g_rmdir (root);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  root = g_dir_make_tmp ("jvms-fuzz-ctf-XXXXXX", NULL);
  if (root == NULL)
    abort ();
  trace = g_build_filename (root, "trace", NULL);
  stream = g_build_filename (trace, "channel0_0", NULL);
  g_autofree char *written = g_build_filename (root, "written", NULL);
  g_mkdir (trace, 0700);
  g_mkdir (written, 0700);
  ctf_synthetic_write (written);

  const char *seeds = g_getenv ("JVMS_FUZZ_CTF_SEEDS");
  if (seeds != NULL)
    {
      const char *names[] = { "channel0_0", "channel0_1" };
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          g_autofree char *from = g_build_filename (written, names[i], NULL);
          g_autofree char *to = g_build_filename (seeds, names[i], NULL);
          g_autofree char *contents = NULL;
          gsize len = 0;
          if (g_file_get_contents (from, &contents, &len, NULL))
            g_file_set_contents (to, contents, (gssize) len, NULL);
        }
    }

  const char *source = g_getenv ("JVMS_FUZZ_CTF_TRACE");
  g_autofree char *from = g_build_filename (source != NULL ? source : written, "metadata", NULL);
  g_autofree char *to = g_build_filename (trace, "metadata", NULL);
  g_autofree char *contents = NULL;
  gsize len = 0;
  if (!g_file_get_contents (from, &contents, &len, NULL)
      || !g_file_set_contents (to, contents, (gssize) len, NULL))
    abort ();

  const char *names[] = { "metadata", "channel0_0", "channel0_1" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (written, names[i], NULL);
      g_unlink (path);
    }
  g_rmdir (written);
  atexit (remove_root);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (!g_file_set_contents (stream, (const char *) data, (gssize) size, NULL))
    abort ();

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (trace, JVMS_CTF_READER_DEFAULT, &error);
  if (reader == NULL)
    return 0;

  JvmsKernelEvent event;
  gint64 previous = G_MININT64;
  for (guint n = 0; n < MAX_EVENTS && jvms_ctf_reader_next (reader, &event, &error); n++)
    {
      /* The reader's promises, whatever the input. */
      if (event.time < previous || event.name == NULL)
        abort ();
      previous = event.time;
    }
  return 0;
}
