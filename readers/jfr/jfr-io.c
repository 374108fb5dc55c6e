/* jfr-io.c: the bytes of a file.
 *
 * A file on disk is read with pread into memory of the reader's own and never mapped: a file
 * that shrinks while it is open (a recording dumped again to the same path, a copy being
 * rewritten) would raise SIGBUS on a mapped page past its new end. A read that comes back
 * short says so once, in a warning naming the file and the offset, and the caller reads what
 * it got as a file cut there. Files opened from bytes in memory are read where they are.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jfr-private.h"

guint64
jfr_file_read (JvmsJfrFile *file, guint8 *dest, guint64 offset, guint64 size)
{
  if (offset >= file->size)
    return 0;
  size = MIN (size, file->size - offset);
  if (file->fd < 0)
    {
      memcpy (dest, file->data + offset, (gsize) size);
      return size;
    }
  guint64 done = 0;
  while (done < size)
    {
      gsize want = (gsize) MIN (size - done, (guint64) 1 << 30);
      gssize n = pread (file->fd, dest + done, want, (off_t) (offset + done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int err = errno;
          if (!file->read_failed)
            jfr_file_warn (file, G_MAXUINT, offset + done, "file",
                           "read error: %s; nothing from here on can be read", g_strerror (err));
          file->read_failed = TRUE;
          break;
        }
      if (n == 0)
        {
          if (!file->read_failed)
            {
              struct stat st;
              guint64 now = fstat (file->fd, &st) == 0 ? (guint64) st.st_size : offset + done;
              jfr_file_warn (file, G_MAXUINT, offset + done, "file",
                             "the file shrank while being read: %" G_GUINT64_FORMAT " bytes at open, %" G_GUINT64_FORMAT " now; what lies from here on is missing",
                             file->size, now);
            }
          file->read_failed = TRUE;
          break;
        }
      done += (guint64) n;
    }
  return done;
}

const guint8 *
jfr_file_view (JvmsJfrFile *file, JfrView *view, guint64 offset, guint64 size, guint64 *got)
{
  if (offset >= file->size)
    {
      *got = 0;
      return (const guint8 *) "";
    }
  size = MIN (size, file->size - offset);
  if (file->fd < 0)
    {
      *got = size;
      return file->data + offset;
    }
  if (view->cap < size)
    {
      g_free (view->owned);
      view->cap = MAX ((gsize) size, 64);
      view->owned = g_malloc (view->cap);
    }
  *got = jfr_file_read (file, view->owned, offset, size);
  return view->owned;
}

void
jfr_view_clear (JfrView *view)
{
  g_clear_pointer (&view->owned, g_free);
  view->cap = 0;
}

/* A window of this size is read at a time by jfr_window_at. */
#define WINDOW ((guint64) 1 << 20)

const guint8 *
jfr_window_at (JvmsJfrFile *file, JfrWindow *w, guint64 offset, guint64 need, guint64 *avail)
{
  if (file->fd < 0 || need > WINDOW)
    return jfr_file_view (file, &w->view, offset, need, avail);
  if (w->data == NULL || offset < w->start || offset + need > w->start + w->len)
    {
      w->start = offset;
      w->data = jfr_file_view (file, &w->view, offset, WINDOW, &w->len);
    }
  guint64 in = offset - w->start;
  *avail = in < w->len ? MIN (need, w->len - in) : 0;
  return w->data + in;
}

void
jfr_window_clear (JfrWindow *w)
{
  jfr_view_clear (&w->view);
  w->data = NULL;
  w->start = w->len = 0;
}
