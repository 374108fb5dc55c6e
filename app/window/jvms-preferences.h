/* jvms-preferences.h: the Preferences window (Ctrl+comma): the view preferences of the
 * settings schema, written straight into GSettings; the windows follow the keys. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define JVMS_TYPE_PREFERENCES (jvms_preferences_get_type ())
G_DECLARE_FINAL_TYPE (JvmsPreferences, jvms_preferences, JVMS, PREFERENCES, AdwPreferencesWindow)

/* @grouping_supported: whether the threads view can group otherwise than by kind; when not,
 * the grouping row says so and cannot be changed. */
GtkWidget *jvms_preferences_new (GtkWindow *parent,
                                 GSettings *settings,
                                 gboolean   grouping_supported);

G_END_DECLS
