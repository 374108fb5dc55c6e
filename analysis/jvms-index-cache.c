/* jvms-index-cache.c: the cache folder's files, its locks and its sweeping. */
#include "jvms-index-cache.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jvms-input-file.h"
#include "jvms-states.h"
#include "jvms-trace-detect.h"

#define PATH_KEY_LEN 16
/* How often a load waiting for another process's lock looks again (and at its cancellable). */
#define LOCK_POLL_US 20000

void
jvms_index_cache_remove_folder (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            jvms_index_cache_remove_folder (child);
          else
            g_unlink (child);
        }
    }
  g_rmdir (path);
}

gboolean
jvms_index_cache_writable (const char *dir)
{
  if (g_mkdir_with_parents (dir, 0700) != 0)
    return FALSE;
  g_autofree char *probe = g_build_filename (dir, ".jvmscope-write-probe-XXXXXX", NULL);
  int fd = g_mkstemp (probe);
  if (fd < 0)
    return FALSE;
  close (fd);
  g_unlink (probe);
  return TRUE;
}

/* MD5 of a whole file: corruption detection, not security. Read in blocks rather than mapped,
 * so that checking a large index does not add the whole index to the resident memory. */
static char *
file_digest (const char *path)
{
  struct stat st;
  int fd = jvms_input_file_open (path, &st, NULL);
  if (fd < 0)
    return NULL;
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
  g_autofree guchar *block = g_malloc (1 << 20);
  off_t offset = 0;
  for (;;)
    {
      ssize_t n = pread (fd, block, 1 << 20, offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          close (fd);
          return NULL;
        }
      if (n == 0)
        break;
      g_checksum_update (sum, block, n);
      offset += n;
    }
  close (fd);
  return g_strdup (g_checksum_get_string (sum));
}

gboolean
jvms_index_cache_seal (const char *index_path, GError **error)
{
  g_autofree char *digest = file_digest (index_path);
  g_autofree char *sum_path = g_strconcat (index_path, ".sum", NULL);
  if (digest == NULL)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                   "%s: the new index cannot be read back", index_path);
      return FALSE;
    }
  return g_file_set_contents (sum_path, digest, -1, error);
}

JvmsHistory *
jvms_index_cache_reuse (const char *index_path, const char *samples_path, const char *identity)
{
  /* Only a regular file is handed to jvms_history_open(), whose open would wait on a pipe. */
  struct stat st;
  int fd = jvms_input_file_open (index_path, &st, NULL);
  if (fd < 0)
    return NULL;
  close (fd);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistory) h = jvms_history_open (index_path, 0, &error);
  if (h == NULL)
    {
      g_debug ("%s: rebuilding: %s", index_path, error->message);
      return NULL;
    }
  g_autofree char *version = g_strdup_printf ("%d", JVMS_ANALYSIS_VERSION);
  if (!jvms_history_is_complete (h)
      || g_strcmp0 (jvms_history_get_metadata (h, "analysis-version"), version) != 0
      || g_strcmp0 (jvms_history_get_metadata (h, "trace-identity"), identity) != 0)
    return NULL;
  /* Opening checks the header and tables only; damage in a node would surface in some view's
   * query much later. The digest written beside the index when it was built covers every byte,
   * at a tenth of the cost of decoding every node (jvms_history_check). */
  g_autofree char *sum_path = g_strconcat (index_path, ".sum", NULL);
  g_autofree char *expected = jvms_input_file_read (sum_path, 256, NULL, NULL);
  g_autofree char *actual = file_digest (index_path);
  if (expected == NULL || actual == NULL || strcmp (g_strstrip (expected), actual) != 0)
    {
      g_debug ("%s: rebuilding: its digest does not match %s", index_path, sum_path);
      return NULL;
    }
  /* The sample store is written first and renamed before the index closes: without it the
   * build did not finish. */
  fd = jvms_input_file_open (samples_path, &st, NULL);
  if (fd < 0)
    return NULL;
  close (fd);
  return g_steal_pointer (&h);
}


/* ------------------------------------------------------------------------------------------ */
/* Locks and sweeping */

static char *
lock_path (const char *dir, const char *path_key)
{
  return g_strdup_printf ("%s/%s.lock", dir, path_key);
}

static int
open_lock (const char *path, GError **error)
{
  /* O_NONBLOCK: a named pipe planted under the lock's name must not block the open. */
  int fd = g_open (path, O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0600);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      int saved = errno;
      if (fd >= 0)
        {
          close (fd);
          g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                       "%s is %s, not a lock file", path, jvms_input_file_kind (st.st_mode));
        }
      else
        g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                     "%s: cannot create the lock: %s", path, g_strerror (saved));
      return -1;
    }
  return fd;
}

/* Whether the lock we got on @fd is on the file @path names now: the holder removes the file
 * when it lets go, so a waiter may wake up holding a lock on a file that is gone. */
static gboolean
lock_is_current (int fd, const char *path)
{
  struct stat held, named;
  return fstat (fd, &held) == 0 && g_lstat (path, &named) == 0
         && held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

/* One attempt; -1 with errno EWOULDBLOCK when another process holds it. */
static int
try_lock (const char *path, gboolean wait_for_it, GCancellable *cancellable, GError **error)
{
  for (;;)
    {
      int fd = open_lock (path, error);
      if (fd < 0)
        return -1;
      /* Polled rather than blocking, so that a cancelled load stops waiting. */
      while (flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          int saved = errno;
          if (saved == EINTR)
            continue;
          if (saved != EWOULDBLOCK)
            {
              close (fd);
              g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                           "%s: cannot lock: %s", path, g_strerror (saved));
              return -1;
            }
          if (!wait_for_it)
            {
              close (fd);
              errno = EWOULDBLOCK;
              return -1;
            }
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              close (fd);
              return -1;
            }
          g_usleep (LOCK_POLL_US);
        }
      if (lock_is_current (fd, path))
        return fd;
      close (fd);
    }
}

int
jvms_index_cache_lock (const char *dir, const char *path_key, GCancellable *cancellable,
                       GError **error)
{
  g_autofree char *path = lock_path (dir, path_key);
  return try_lock (path, TRUE, cancellable, error);
}

void
jvms_index_cache_unlock (const char *dir, const char *path_key, int lock_fd)
{
  if (lock_fd < 0)
    return;
  /* Removed while still held: nobody can take a lock on it that another would not see. */
  g_autofree char *path = lock_path (dir, path_key);
  g_unlink (path);
  close (lock_fd);
}

/* "K-..." with K the 16 hex digits of a path key: a file of the cache's (copied into @key). */
static gboolean
trace_file_key (const char *name, char key[PATH_KEY_LEN + 1])
{
  for (guint i = 0; i < PATH_KEY_LEN; i++)
    if (!g_ascii_isxdigit (name[i]))
      return FALSE;
  if (name[PATH_KEY_LEN] != '-')
    return FALSE;
  memcpy (key, name, PATH_KEY_LEN);
  key[PATH_KEY_LEN] = '\0';
  return TRUE;
}

static gboolean
is_temporary (const char *name)
{
  return strstr (name, ".tmp-") != NULL || strstr (name, ".sum.") != NULL;
}

static void
remove_files (const char *dir, GPtrArray *names)
{
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *p = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      g_unlink (p);
    }
}

void
jvms_index_cache_sweep (const char *dir, const char *own_key)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  /* Path key -> names of its temporary files. */
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) g_ptr_array_unref);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      char key[PATH_KEY_LEN + 1];
      if (!trace_file_key (name, key) || !is_temporary (name))
        continue;
      GPtrArray *names = g_hash_table_lookup (by_key, key);
      if (names == NULL)
        {
          names = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (by_key, g_strdup (key), names);
        }
      g_ptr_array_add (names, g_strdup (name));
    }

  GHashTableIter it;
  gpointer key, names;
  g_hash_table_iter_init (&it, by_key);
  while (g_hash_table_iter_next (&it, &key, &names))
    {
      if (strcmp (key, own_key) == 0)
        {
          /* Our lock is held (by us): nobody else is building this trace. */
          remove_files (dir, names);
          continue;
        }
      /* Held: a live process is building that trace, its files are in use. */
      g_autofree char *path = lock_path (dir, key);
      int fd = try_lock (path, FALSE, NULL, NULL);
      if (fd < 0)
        continue;
      remove_files (dir, names);
      jvms_index_cache_unlock (dir, key, fd);
    }
}

void
jvms_index_cache_remove_trace (const char *dir, const char *path_key)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  char key[PATH_KEY_LEN + 1];
  while ((name = g_dir_read_name (d)) != NULL)
    if (trace_file_key (name, key) && strcmp (key, path_key) == 0)
      g_ptr_array_add (names, g_strdup (name));
  remove_files (dir, names);
}
