/* jvms-build.h: one streaming pass over a trace's readers into a new index (internal to
 * analysis/: JvmsTraceIndex is the public door). */
#pragma once

#include <gio/gio.h>

#include "jvms-history.h"
#include "jvms-trace-index.h"

G_BEGIN_DECLS

typedef struct
{
  JvmsTraceKind kind;
  const char   *trace_path;
  const char   *index_path;
  const char   *samples_path;
  const char   *events_path;  /* the event store (jvms-event-store.h), or NULL for none */
  const char   *identity;     /* stored as "trace-identity" */
  guint64       total_bytes;  /* of every input, for the progress fraction */
  gboolean      without_wakers; /* bench-index only: measure what keeping wakers costs */
  /* Called from the building thread. */
  void        (*progress)      (double fraction, gpointer user_data);
  void        (*history_ready) (JvmsHistory *history, gpointer user_data);
  gpointer      user_data;
} JvmsBuildRequest;

typedef struct
{
  JvmsHistory     *history;   /* complete on success; owned by the caller */
  JvmsTraceLayers  layers;
  GPtrArray       *warnings;  /* char*, owned by the caller: what could not be read */
  GPtrArray       *notes;     /* char*, owned by the caller: remarks on a trace read in full */
  guint64          input_bytes;
  guint64          n_events;
} JvmsBuildResult;

gboolean jvms_build_index (const JvmsBuildRequest *request,
                           JvmsBuildResult        *result,
                           GCancellable           *cancellable,
                           GError                **error);

G_END_DECLS
