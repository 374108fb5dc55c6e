/* jvms-input-file.h: opening a file that a trace names or holds.
 *
 * A trace is a folder anyone can change: any of its files may be replaced by a named pipe, a
 * socket, a device, a folder or a link to one of them. Opening a named pipe for reading waits
 * for a writer, and reading a device may never end. Every file Jvmscope reads by path (the
 * trace's files, bundle.json, the index cache's own files) is opened here: a regular file once
 * symbolic links are followed, or an error at once naming the path and what it is instead
 * ("/t/recording.jfr is a named pipe, not a file"). Opening never blocks: the type is checked
 * before the open, and again on the open descriptor, which is opened with O_NONBLOCK.
 */
#pragma once

#include <gio/gio.h>
#include <sys/stat.h>

G_BEGIN_DECLS

/* Returns a descriptor (O_RDONLY, O_CLOEXEC, in blocking mode) and fills @st, or -1 with
 * @error in G_IO_ERROR: G_IO_ERROR_NOT_REGULAR_FILE or G_IO_ERROR_IS_DIRECTORY for another kind
 * of file, otherwise the code of the open's errno ("PATH: No such file or directory"). */
int         jvms_input_file_open   (const char   *path,
                                    struct stat  *st,
                                    GError      **error);

/* Reads the whole of a small regular file: at most @max_bytes, or an error naming the path and
 * its size ("PATH: 209715200 bytes, more than the 1048576 expected of it"). NUL-terminated. */
char       *jvms_input_file_read   (const char   *path,
                                    gsize         max_bytes,
                                    gsize        *length,
                                    GError      **error);

/* "a named pipe", "a socket", "a character device", "a block device", "a folder",
 * "a regular file" or "not a regular file": what @mode says a file is. */
const char *jvms_input_file_kind   (mode_t        mode);

G_END_DECLS
