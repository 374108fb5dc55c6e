/* jvms-loader.h: the window's handle on indexing one trace.
 *
 * A thin adapter between the window and analysis/ (jvms-trace-index.h): the window only ever
 * sees this object, so the indexer can change behind it. Loading runs in a GTask thread; the
 * main thread polls its progress a few times a second and re-emits it as the "fraction"
 * property and the "grew" signal, so that views redraw what is indexed so far without the
 * worker ever touching a widget. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define JVMS_TYPE_LOADER (jvms_loader_get_type ())
G_DECLARE_FINAL_TYPE (JvmsLoader, jvms_loader, JVMS, LOADER, GObject)

JvmsLoader          *jvms_loader_new          (GFile               *file);
GFile               *jvms_loader_get_file     (JvmsLoader          *self);
double               jvms_loader_get_fraction (JvmsLoader          *self);
gboolean             jvms_loader_get_loading  (JvmsLoader          *self);
/* The JvmsHistory (state-history/jvms-history.h) as indexed so far, or NULL before any; owned
 * by the loader. A gpointer so that this header builds before the engine lands. */
gpointer             jvms_loader_get_history  (JvmsLoader          *self);
/* The byte budget of the history's node cache (0: the index's default). The index is built
 * with the default; once complete, the loader opens it again with this budget, right away when
 * the load has ended. The getter gives the budget of the history held now (0: default). */
void                 jvms_loader_set_cache_budget (JvmsLoader      *self,
                                                   gsize            bytes);
gsize                jvms_loader_get_cache_budget (JvmsLoader      *self);
/* The point-sample store beside the index, or NULL (analysis/jvms-trace-index.h). */
const char          *jvms_loader_get_samples_path (JvmsLoader      *self);
/* Problems that did not stop loading (a truncated chunk, lost events); NULL-terminated. */
const char * const  *jvms_loader_get_warnings (JvmsLoader          *self);
/* Begins indexing now, before anyone waits for it (the window is built meanwhile); the task of
 * jvms_loader_load_async() then gets its outcome. load_async starts it when nobody did. */
void                 jvms_loader_start        (JvmsLoader          *self);
void                 jvms_loader_load_async   (JvmsLoader          *self,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
/* FALSE with an error when nothing could be loaded; TRUE otherwise, even with warnings. */
gboolean             jvms_loader_load_finish  (JvmsLoader          *self,
                                               GAsyncResult        *result,
                                               GError             **error);

G_END_DECLS
