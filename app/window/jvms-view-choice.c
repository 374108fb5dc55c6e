/* jvms-view-choice.c: a view's property as a drop-down (see the header). */
#include "config.h"

#include "jvms-view-choice.h"

typedef struct
{
  GObject            *view;     /* unowned: it outlives its header */
  char               *property;
  JvmsViewChoiceFill  fill;
  GStrv               values;
  gboolean            updating; /* the drop-down is being set from the view */
} Choice;

static void
choice_free (gpointer data)
{
  Choice *choice = data;
  g_free (choice->property);
  g_strfreev (choice->values);
  g_free (choice);
}

/* The property's value as a string: itself, or an enum's nick. */
static char *
property_text (Choice *choice)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (choice->view),
                                                    choice->property);
  g_auto(GValue) value = G_VALUE_INIT;

  g_value_init (&value, pspec->value_type);
  g_object_get_property (choice->view, choice->property, &value);
  if (G_VALUE_HOLDS_ENUM (&value))
    {
      GEnumClass *klass = g_type_class_peek (pspec->value_type);
      GEnumValue *v = g_enum_get_value (klass, g_value_get_enum (&value));
      return g_strdup (v != NULL ? v->value_nick : NULL);
    }
  return g_value_dup_string (&value);
}

static void
show_value (GtkDropDown *drop_down,
            Choice      *choice)
{
  g_autofree char *text = property_text (choice);
  guint index = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; choice->values != NULL && choice->values[i] != NULL; i++)
    if (g_strcmp0 (choice->values[i], text) == 0)
      index = i;
  choice->updating = TRUE;
  gtk_drop_down_set_selected (drop_down, index);
  choice->updating = FALSE;
}

static void
refill (GtkDropDown *drop_down,
        Choice      *choice)
{
  g_autoptr(GStrvBuilder) values = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) labels = g_strv_builder_new ();
  g_auto(GStrv) label_list = NULL;
  g_autoptr(GtkStringList) model = NULL;

  choice->fill (choice->view, values, labels);
  g_strfreev (choice->values);
  choice->values = g_strv_builder_end (values);
  label_list = g_strv_builder_end (labels);
  model = gtk_string_list_new ((const char * const *) label_list);
  choice->updating = TRUE;
  gtk_drop_down_set_model (drop_down, G_LIST_MODEL (model));
  choice->updating = FALSE;
  show_value (drop_down, choice);
}

static void
on_selected (GtkDropDown *drop_down,
             GParamSpec  *pspec,
             Choice      *choice)
{
  guint index = gtk_drop_down_get_selected (drop_down);
  GParamSpec *target;

  if (choice->updating || choice->values == NULL ||
      index >= g_strv_length (choice->values))
    return;
  target = g_object_class_find_property (G_OBJECT_GET_CLASS (choice->view), choice->property);
  if (G_TYPE_IS_ENUM (target->value_type))
    {
      GEnumClass *klass = g_type_class_peek (target->value_type);
      GEnumValue *v = g_enum_get_value_by_nick (klass, choice->values[index]);
      if (v != NULL)
        g_object_set (choice->view, choice->property, v->value, NULL);
    }
  else
    g_object_set (choice->view, choice->property, choice->values[index], NULL);
}

/* Notifications of the view: swapped, the drop-down first. */
static void
on_view_value (GtkDropDown *drop_down,
               GParamSpec  *pspec,
               GObject     *view)
{
  show_value (drop_down, g_object_get_data (G_OBJECT (drop_down), "jvms-view-choice"));
}

static void
on_view_items (GtkDropDown *drop_down,
               GParamSpec  *pspec,
               GObject     *view)
{
  refill (drop_down, g_object_get_data (G_OBJECT (drop_down), "jvms-view-choice"));
}

GtkWidget *
jvms_view_choice_new (GObject            *view,
                      const char         *property,
                      const char         *refill_property,
                      JvmsViewChoiceFill  fill,
                      const char         *accessible_label)
{
  GtkWidget *drop_down = gtk_drop_down_new (NULL, NULL);
  Choice *choice = g_new0 (Choice, 1);
  g_autofree char *notify = g_strconcat ("notify::", property, NULL);

  g_return_val_if_fail (g_object_class_find_property (G_OBJECT_GET_CLASS (view), property) != NULL,
                        drop_down);
  choice->view = view;
  choice->property = g_strdup (property);
  choice->fill = fill;
  g_object_set_data_full (G_OBJECT (drop_down), "jvms-view-choice", choice, choice_free);
  gtk_widget_set_valign (drop_down, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (drop_down, "flat");
  gtk_accessible_update_property (GTK_ACCESSIBLE (drop_down),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_label, -1);
  gtk_widget_set_tooltip_text (drop_down, accessible_label);
  refill (GTK_DROP_DOWN (drop_down), choice);
  g_signal_connect (drop_down, "notify::selected", G_CALLBACK (on_selected), choice);
  g_signal_connect_object (view, notify, G_CALLBACK (on_view_value), drop_down, G_CONNECT_SWAPPED);
  if (refill_property != NULL)
    {
      g_autofree char *refill_notify = g_strconcat ("notify::", refill_property, NULL);
      g_signal_connect_object (view, refill_notify, G_CALLBACK (on_view_items), drop_down,
                               G_CONNECT_SWAPPED);
    }
  return drop_down;
}
