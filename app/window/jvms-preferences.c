/* jvms-preferences.c: the Preferences window (see the header). */
#include "config.h"

#include "jvms-preferences.h"

#include <glib/gi18n.h>

struct _JvmsPreferences
{
  AdwPreferencesWindow parent_instance;

  AdwComboRow *grouping_row;
  AdwComboRow *time_unit_row;
  AdwComboRow *time_origin_row;
  GtkSpinButton *cache_budget_spin;
};

G_DEFINE_FINAL_TYPE (JvmsPreferences, jvms_preferences, ADW_TYPE_PREFERENCES_WINDOW)

/* Nicks of the schema's enums in value order: the combo rows list their items in that order. */
static const char * const grouping_nicks[] = { "none", "process", "pool", "kind", NULL };
static const char * const time_unit_nicks[] = { "auto", "nanoseconds", "microseconds",
                                                "milliseconds", "seconds", NULL };
static const char * const time_origin_nicks[] = { "trace-start", "wall-clock", NULL };

static gboolean
nick_to_selected (GValue *value, GVariant *variant, gpointer user_data)
{
  const char * const *nicks = user_data;
  const char *nick = g_variant_get_string (variant, NULL);
  for (guint i = 0; nicks[i] != NULL; i++)
    if (g_str_equal (nicks[i], nick))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
selected_to_nick (const GValue *value, const GVariantType *type, gpointer user_data)
{
  const char * const *nicks = user_data;
  guint selected = g_value_get_uint (value);
  if (selected >= g_strv_length ((char **) nicks))
    return NULL;
  return g_variant_new_string (nicks[selected]);
}

static void
bind_row (GSettings *settings, const char *key, AdwComboRow *row, const char * const *nicks)
{
  g_settings_bind_with_mapping (settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT,
                                nick_to_selected, selected_to_nick, (gpointer) nicks, NULL);
}

GtkWidget *
jvms_preferences_new (GtkWindow *parent, GSettings *settings, gboolean grouping_supported)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  JvmsPreferences *self = g_object_new (JVMS_TYPE_PREFERENCES, "transient-for", parent, NULL);
  bind_row (settings, "thread-grouping", self->grouping_row, grouping_nicks);
  bind_row (settings, "time-unit", self->time_unit_row, time_unit_nicks);
  bind_row (settings, "time-origin", self->time_origin_row, time_origin_nicks);
  /* The adjustment's bounds are the schema's range. */
  g_settings_bind (settings, "cache-budget-mib", self->cache_budget_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  if (!grouping_supported)
    {
      /* A choice that changes nothing would mislead: say what the view does instead. */
      gtk_widget_set_sensitive (GTK_WIDGET (self->grouping_row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->grouping_row),
                                   _("This version of the threads view always groups by kind"));
    }
  return GTK_WIDGET (self);
}

static void
jvms_preferences_class_init (JvmsPreferencesClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jvmscope/Jvmscope/jvms-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, JvmsPreferences, grouping_row);
  gtk_widget_class_bind_template_child (widget_class, JvmsPreferences, time_unit_row);
  gtk_widget_class_bind_template_child (widget_class, JvmsPreferences, time_origin_row);
  gtk_widget_class_bind_template_child (widget_class, JvmsPreferences, cache_budget_spin);
}

static void
jvms_preferences_init (JvmsPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
