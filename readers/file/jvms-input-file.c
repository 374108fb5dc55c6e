/* jvms-input-file.c: regular files only, opened without blocking. */
#include "jvms-input-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

const char *
jvms_input_file_kind (mode_t mode)
{
  if (S_ISREG (mode))
    return "a regular file";
  if (S_ISDIR (mode))
    return "a folder";
  if (S_ISFIFO (mode))
    return "a named pipe";
  if (S_ISSOCK (mode))
    return "a socket";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  return "not a regular file";
}

static gboolean
check_regular (const char *path, const struct stat *st, GError **error)
{
  if (S_ISREG (st->st_mode))
    return TRUE;
  g_set_error (error, G_IO_ERROR,
               S_ISDIR (st->st_mode) ? G_IO_ERROR_IS_DIRECTORY : G_IO_ERROR_NOT_REGULAR_FILE,
               "%s is %s, not a file", path, jvms_input_file_kind (st->st_mode));
  return FALSE;
}

static void
set_errno_error (const char *path, int err, GError **error)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err), "%s: %s", path, g_strerror (err));
}

int
jvms_input_file_open (const char *path, struct stat *st, GError **error)
{
  g_return_val_if_fail (path != NULL, -1);
  g_return_val_if_fail (st != NULL, -1);

  /* The type first, so that a device is not even opened (opening some has effects). */
  if (stat (path, st) != 0)
    {
      set_errno_error (path, errno, error);
      return -1;
    }
  if (!check_regular (path, st, error))
    return -1;

  /* The file may have been replaced since: O_NONBLOCK keeps a named pipe from blocking the
   * open, and the descriptor's own type decides. */
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      set_errno_error (path, errno, error);
      return -1;
    }
  if (fstat (fd, st) != 0)
    {
      int err = errno;
      close (fd);
      set_errno_error (path, err, error);
      return -1;
    }
  if (!check_regular (path, st, error))
    {
      close (fd);
      return -1;
    }
  int flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

char *
jvms_input_file_read (const char *path, gsize max_bytes, gsize *length, GError **error)
{
  struct stat st;
  int fd = jvms_input_file_open (path, &st, error);
  if (fd < 0)
    return NULL;
  if ((guint64) st.st_size > max_bytes)
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%s: %" G_GUINT64_FORMAT " bytes, more than the %" G_GSIZE_FORMAT " expected of it",
                   path, (guint64) st.st_size, max_bytes);
      return NULL;
    }
  /* Sized by the fstat; up to one byte more than allowed is read, so that a file grown since
   * is seen. */
  gsize cap = (gsize) st.st_size + 1;
  char *buf = g_malloc (cap + 1);
  gsize len = 0;
  while (len <= max_bytes)
    {
      if (len == cap)
        {
          cap = MIN (cap * 2, max_bytes + 1);
          buf = g_realloc (buf, cap + 1);
        }
      ssize_t n = read (fd, buf + len, cap - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int err = errno;
          close (fd);
          g_free (buf);
          set_errno_error (path, err, error);
          return NULL;
        }
      if (n == 0)
        break;
      len += (gsize) n;
    }
  close (fd);
  if (len > max_bytes)
    {
      g_free (buf);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%s: more than the %" G_GSIZE_FORMAT " bytes expected of it", path, max_bytes);
      return NULL;
    }
  buf[len] = '\0';
  if (length != NULL)
    *length = len;
  return buf;
}
