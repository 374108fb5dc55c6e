/* jvms-event-type-chooser.c: the event table's choice of event types (see the header). */
#include "config.h"

#include "jvms-event-type-chooser.h"

#include <glib/gi18n.h>
#include <string.h>

struct _JvmsEventTypeChooser
{
  GtkWidget       parent_instance;

  GtkMenuButton  *button;
  GtkSearchEntry *search;
  GtkListBox     *list;
  GPtrArray      *checks;   /* GtkCheckButton * by type id (the list owns them) */
  JvmsEventStore *store;
  GArray         *chosen;   /* guint32, increasing */
  gboolean        updating; /* ticks set by code: no "changed" per tick */
};

G_DEFINE_FINAL_TYPE (JvmsEventTypeChooser, jvms_event_type_chooser, GTK_TYPE_WIDGET)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
update_label (JvmsEventTypeChooser *self)
{
  guint n = self->chosen->len;
  if (n == 0)
    gtk_menu_button_set_label (self->button, _("All Types"));
  else if (n == 1 && self->store != NULL)
    gtk_menu_button_set_label (self->button,
                               jvms_event_store_get_type (self->store, g_array_index (self->chosen, guint32, 0))->name);
  else
    {
      g_autofree char *number = g_strdup_printf ("%u", n);
      /* The number is formatted outside the translated text. */
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s type", "%s types", n), number);
      gtk_menu_button_set_label (self->button, text);
    }
}

/* The chosen types from the check boxes, in type order. */
static gboolean
read_checks (JvmsEventTypeChooser *self)
{
  g_autoptr(GArray) now = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 t = 0; t < self->checks->len; t++)
    if (gtk_check_button_get_active (g_ptr_array_index (self->checks, t)))
      g_array_append_val (now, t);
  gboolean same = now->len == self->chosen->len
                  && memcmp (now->data, self->chosen->data, now->len * sizeof (guint32)) == 0;
  g_array_set_size (self->chosen, 0);
  g_array_append_vals (self->chosen, now->data, now->len);
  update_label (self);
  return !same;
}

static void
check_toggled (JvmsEventTypeChooser *self)
{
  if (!self->updating && read_checks (self))
    g_signal_emit (self, signals[CHANGED], 0);
}

static const char *
row_name (GtkListBoxRow *row)
{
  return gtk_check_button_get_label (GTK_CHECK_BUTTON (gtk_list_box_row_get_child (row)));
}

/* Rows whose name holds the search text, any case. */
static gboolean
row_shown (GtkListBoxRow *row, gpointer data)
{
  JvmsEventTypeChooser *self = data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  if (text == NULL || *text == '\0')
    return TRUE;
  g_autofree char *needle = g_utf8_casefold (text, -1);
  g_autofree char *name = g_utf8_casefold (row_name (row), -1);
  return strstr (name, needle) != NULL;
}

/* Enter in the search: the type named exactly so, else the first one shown, ticked or not. */
static void
search_activated (JvmsEventTypeChooser *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  GtkListBoxRow *first = NULL;
  for (int i = 0; ; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list, i);
      if (row == NULL)
        break;
      if (!row_shown (row, self))
        continue;
      if (g_strcmp0 (row_name (row), text) == 0)
        {
          first = row;
          break;
        }
      if (first == NULL)
        first = row;
    }
  if (first != NULL)
    {
      GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_list_box_row_get_child (first));
      gtk_check_button_set_active (check, !gtk_check_button_get_active (check));
    }
}

/* Escape in the search closes the popover, as elsewhere in a popover. */
static void
search_stopped (JvmsEventTypeChooser *self)
{
  gtk_menu_button_popdown (self->button);
}

static void
popover_mapped (JvmsEventTypeChooser *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->search));
}

static int
name_cmp (gconstpointer a, gconstpointer b)
{
  GtkCheckButton *x = *(GtkCheckButton * const *) a, *y = *(GtkCheckButton * const *) b;
  return strcmp (gtk_check_button_get_label (x), gtk_check_button_get_label (y));
}

void
jvms_event_type_chooser_set_store (JvmsEventTypeChooser *self, JvmsEventStore *store)
{
  g_return_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self));
  if (store != NULL)
    jvms_event_store_ref (store);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  self->store = store;
  GtkWidget *row;
  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, row);
  g_ptr_array_set_size (self->checks, 0);
  g_array_set_size (self->chosen, 0);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  for (guint32 t = 0; store != NULL && t < jvms_event_store_get_n_types (store); t++)
    {
      GtkWidget *check = gtk_check_button_new_with_label (jvms_event_store_get_type (store, t)->name);
      g_signal_connect_swapped (check, "toggled", G_CALLBACK (check_toggled), self);
      g_ptr_array_add (self->checks, check);
      g_ptr_array_add (sorted, check);
    }
  g_ptr_array_sort (sorted, name_cmp);
  for (guint i = 0; i < sorted->len; i++)
    gtk_list_box_append (self->list, g_ptr_array_index (sorted, i));
  update_label (self);
}

const GArray *
jvms_event_type_chooser_get_chosen (JvmsEventTypeChooser *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self), NULL);
  return self->chosen;
}

gboolean
jvms_event_type_chooser_set_type (JvmsEventTypeChooser *self, const char *name, gboolean chosen)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self), FALSE);
  guint32 t = self->store != NULL ? jvms_event_store_find_type (self->store, name) : JVMS_EVENT_NONE;
  if (t == JVMS_EVENT_NONE || t >= self->checks->len)
    return FALSE;
  gtk_check_button_set_active (g_ptr_array_index (self->checks, t), chosen);
  return TRUE;
}

void
jvms_event_type_chooser_clear (JvmsEventTypeChooser *self)
{
  g_return_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self));
  /* One "changed" for all of them. */
  self->updating = TRUE;
  for (guint t = 0; t < self->checks->len; t++)
    gtk_check_button_set_active (g_ptr_array_index (self->checks, t), FALSE);
  self->updating = FALSE;
  if (read_checks (self))
    g_signal_emit (self, signals[CHANGED], 0);
}

char *
jvms_event_type_chooser_describe (JvmsEventTypeChooser *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self), NULL);
  GString *s = g_string_new (NULL);
  for (guint i = 0; self->store != NULL && i < self->chosen->len; i++)
    g_string_append_printf (s, "%s%s", i ? ";" : "",
                            jvms_event_store_get_type (self->store, g_array_index (self->chosen, guint32, i))->name);
  return g_string_free (s, FALSE);
}

GtkWidget *
jvms_event_type_chooser_get_search (JvmsEventTypeChooser *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self), NULL);
  return GTK_WIDGET (self->search);
}

gboolean
jvms_event_type_chooser_is_open (JvmsEventTypeChooser *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self), FALSE);
  GtkPopover *popover = gtk_menu_button_get_popover (self->button);
  return popover != NULL && gtk_widget_get_visible (GTK_WIDGET (popover));
}

static void
jvms_event_type_chooser_dispose (GObject *object)
{
  JvmsEventTypeChooser *self = JVMS_EVENT_TYPE_CHOOSER (object);
  if (self->button != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->button));
  self->button = NULL;
  g_clear_pointer (&self->store, jvms_event_store_unref);
  G_OBJECT_CLASS (jvms_event_type_chooser_parent_class)->dispose (object);
}

static void
jvms_event_type_chooser_finalize (GObject *object)
{
  JvmsEventTypeChooser *self = JVMS_EVENT_TYPE_CHOOSER (object);
  g_ptr_array_unref (self->checks);
  g_array_unref (self->chosen);
  G_OBJECT_CLASS (jvms_event_type_chooser_parent_class)->finalize (object);
}

static void
jvms_event_type_chooser_class_init (JvmsEventTypeChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = jvms_event_type_chooser_dispose;
  object_class->finalize = jvms_event_type_chooser_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "eventtypechooser");
}

static void
jvms_event_type_chooser_init (JvmsEventTypeChooser *self)
{
  self->checks = g_ptr_array_new ();
  self->chosen = g_array_new (FALSE, FALSE, sizeof (guint32));

  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search, "placeholder-text", _("Find a type"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Find an event type"), -1);
  GtkWidget *all = gtk_button_new_with_mnemonic (_("_All Types"));
  gtk_widget_set_tooltip_text (all, _("Untick every type: show events of all types"));
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_list_box_set_filter_func (self->list, row_shown, self, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Event types"), -1);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->list));

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  /* Room for long names (jdk.GCPhaseParallel, syscall:sched_getaffinity). */
  gtk_widget_set_size_request (box, 380, -1);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_hexpand (GTK_WIDGET (self->search), TRUE);
  gtk_box_append (GTK_BOX (top), GTK_WIDGET (self->search));
  gtk_box_append (GTK_BOX (top), all);
  gtk_box_append (GTK_BOX (box), top);
  gtk_box_append (GTK_BOX (box), scroller);
  GtkWidget *popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), box);

  self->button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_popover (self->button, popover);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), _("Show events of the types ticked"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Event types"), -1);
  gtk_widget_set_parent (GTK_WIDGET (self->button), GTK_WIDGET (self));
  update_label (self);

  g_signal_connect_swapped (popover, "map", G_CALLBACK (popover_mapped), self);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (gtk_list_box_invalidate_filter), self->list);
  g_signal_connect_swapped (self->search, "activate", G_CALLBACK (search_activated), self);
  g_signal_connect_swapped (self->search, "stop-search", G_CALLBACK (search_stopped), self);
  g_signal_connect_swapped (all, "clicked", G_CALLBACK (jvms_event_type_chooser_clear), self);
}

GtkWidget *
jvms_event_type_chooser_new (void)
{
  return g_object_new (JVMS_TYPE_EVENT_TYPE_CHOOSER, NULL);
}
