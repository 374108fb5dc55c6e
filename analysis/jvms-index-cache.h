/* jvms-index-cache.h: the index cache's own files (internal to analysis/: JvmsTraceIndex is the
 * public door; docs/analysis.md, "The index cache").
 *
 * In a cache folder, for a trace at path P (K: the first 16 hex digits of SHA-256 (P)) whose
 * identity gives H (32 hex digits):
 *   K-H.jvmsidx          the index (state-history), written as K-H.jvmsidx.tmp-XXXXXX, renamed
 *   K-H.jvmsidx.sum      the index's MD5, hex; written (through K-H.jvmsidx.sum.XXXXXX) once the
 *                        index is in place: an index without it is never reused
 *   K-H.samples          the sample store (analysis/jvms-samples.h), written as K-H.samples.tmp-PID
 *   K.lock               empty, flock()ed for the whole of a load of P (the reuse check, the
 *                        build, the digest), so that two processes loading P into one folder take
 *                        turns and the second reuses what the first built. The holder removes
 *                        it as it lets go; a waiter that then holds a lock on a removed file
 *                        (device and inode no longer those of the name) takes the lock anew.
 * Every file of P other than its lock starts with "K-"; those whose name holds ".tmp-" or
 * ".sum." are temporary, and stale once no process holds K.lock (a build killed with -9, a
 * crash, a power cut): every load removes them, for every trace of the folder.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-history.h"

G_BEGIN_DECLS

/* Whether indexes can be created in @dir (made if missing). */
gboolean     jvms_index_cache_writable      (const char    *dir);

/* Takes K.lock for @path_key in @dir, waiting (cancellably) while another process holds it.
 * Returns the lock's descriptor, or -1 with @error (JVMS_ANALYSIS_ERROR_INDEX, or
 * G_IO_ERROR_CANCELLED). */
int          jvms_index_cache_lock          (const char    *dir,
                                             const char    *path_key,
                                             GCancellable  *cancellable,
                                             GError       **error);
/* Lets go of the lock, removing its file. */
void         jvms_index_cache_unlock        (const char    *dir,
                                             const char    *path_key,
                                             int            lock_fd);

/* Removes the temporary files of builds that died: those of @own_key (whose lock the caller
 * holds) and those of every other trace whose lock nobody holds. */
void         jvms_index_cache_sweep         (const char    *dir,
                                             const char    *own_key);

/* Removes every file of the trace with @path_key but its lock (earlier versions, what a failed
 * build left). The caller holds the lock. */
void         jvms_index_cache_remove_trace  (const char    *dir,
                                             const char    *path_key);

/* The index at @index_path if it is complete, current, made from this very trace (@identity),
 * its digest matches and its sample store @samples_path is there; NULL otherwise. */
JvmsHistory *jvms_index_cache_reuse         (const char    *index_path,
                                             const char    *samples_path,
                                             const char    *identity);

/* Writes the digest of a complete index beside it. */
gboolean     jvms_index_cache_seal          (const char    *index_path,
                                             GError       **error);

/* Removes a folder of the cache's (a temporary cache folder) and what it holds. */
void         jvms_index_cache_remove_folder (const char    *path);

G_END_DECLS
