/* jvms-event-type-chooser.c: the event table's choice of event types (see the header). */
#include "config.h"

#include "jvms-event-type-chooser.h"

#include <glib/gi18n.h>
#include <string.h>

struct _JvmsEventTypeChooser
{
  GtkWidget       parent_instance;

  GtkMenuButton  *button;
  GtkWidget      *all;      /* "All Types": not in lanes mode */
  gboolean        lanes;    /* jvms_event_type_chooser_new_for_lanes () */
  GtkSearchEntry *search;
  GtkListBox     *list;
  GPtrArray      *checks;   /* GtkCheckButton * by type id, NULL for a type not listed (the list owns them) */
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
  if (self->lanes)
    {
      g_autofree char *number = g_strdup_printf ("%u", n);
      /* The number is formatted outside the translated text. */
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s lane", "%s lanes", n), number);
      gtk_menu_button_set_label (self->button, text);
    }
  else if (n == 0)
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
    if (g_ptr_array_index (self->checks, t) != NULL
        && gtk_check_button_get_active (g_ptr_array_index (self->checks, t)))
      g_array_append_val (now, t);
  /* An empty GArray's data may be NULL, which memcmp () must not see. */
  gboolean same = now->len == self->chosen->len
                  && (now->len == 0 || memcmp (now->data, self->chosen->data, now->len * sizeof (guint32)) == 0);
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

/* A row's check box: the row's child, or in lanes mode the first child of its box. */
static GtkCheckButton *
row_check (GtkListBoxRow *row)
{
  GtkWidget *child = gtk_list_box_row_get_child (row);
  return GTK_CHECK_BUTTON (GTK_IS_CHECK_BUTTON (child) ? child : gtk_widget_get_first_child (child));
}

static const char *
row_name (GtkListBoxRow *row)
{
  return gtk_check_button_get_label (row_check (row));
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
      GtkCheckButton *check = row_check (first);
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

/* In lanes mode a row is the check box and the type's count of events beside it (the trace's,
 * as `jvmscope-cli events --type T` counts them). */
static GtkWidget *
lane_row (GtkWidget *check, guint64 n_rows)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_rows);
  GtkWidget *label = gtk_label_new (count);
  gtk_widget_set_hexpand (check, TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "numeric");
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), label);
  return box;
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
      const JvmsEventTypeInfo *info = jvms_event_store_get_type (store, t);
      /* A lane of a type without events would stay empty. */
      if (self->lanes && info->n_rows == 0)
        {
          g_ptr_array_add (self->checks, NULL);
          continue;
        }
      GtkWidget *check = gtk_check_button_new_with_label (info->name);
      g_signal_connect_swapped (check, "toggled", G_CALLBACK (check_toggled), self);
      g_ptr_array_add (self->checks, check);
      g_ptr_array_add (sorted, check);
    }
  g_ptr_array_sort (sorted, name_cmp);
  for (guint i = 0; i < sorted->len; i++)
    {
      GtkWidget *check = g_ptr_array_index (sorted, i);
      if (self->lanes)
        {
          guint32 t = jvms_event_store_find_type (store, gtk_check_button_get_label (GTK_CHECK_BUTTON (check)));
          gtk_list_box_append (self->list, lane_row (check, jvms_event_store_get_type (store, t)->n_rows));
        }
      else
        gtk_list_box_append (self->list, check);
    }
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
  if (t == JVMS_EVENT_NONE || t >= self->checks->len || g_ptr_array_index (self->checks, t) == NULL)
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
    if (g_ptr_array_index (self->checks, t) != NULL)
      gtk_check_button_set_active (g_ptr_array_index (self->checks, t), FALSE);
  self->updating = FALSE;
  if (read_checks (self))
    g_signal_emit (self, signals[CHANGED], 0);
}

void
jvms_event_type_chooser_set_chosen_names (JvmsEventTypeChooser *self, const char * const *names)
{
  g_return_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self));
  /* One "changed" for all of them. */
  self->updating = TRUE;
  for (guint32 t = 0; t < self->checks->len; t++)
    if (g_ptr_array_index (self->checks, t) != NULL)
      gtk_check_button_set_active (g_ptr_array_index (self->checks, t),
                                   names != NULL && g_strv_contains (names, jvms_event_store_get_type (self->store, t)->name));
  self->updating = FALSE;
  if (read_checks (self))
    g_signal_emit (self, signals[CHANGED], 0);
}

GStrv
jvms_event_type_chooser_dup_chosen_names (JvmsEventTypeChooser *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self), NULL);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  for (guint i = 0; self->store != NULL && i < self->chosen->len; i++)
    g_strv_builder_add (b, jvms_event_store_get_type (self->store, g_array_index (self->chosen, guint32, i))->name);
  return g_strv_builder_end (b);
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

char *
jvms_event_type_chooser_describe_rows (JvmsEventTypeChooser *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TYPE_CHOOSER (self), NULL);
  GString *s = g_string_new (NULL);
  for (int i = 0; ; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list, i);
      if (row == NULL)
        break;
      GtkWidget *check = GTK_WIDGET (row_check (row));
      GtkWidget *count = gtk_widget_get_next_sibling (check);
      g_string_append_printf (s, "%s%s=%s", i > 0 ? ";" : "", row_name (row),
                              count != NULL ? gtk_label_get_text (GTK_LABEL (count)) : "");
    }
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
  GtkWidget *all = self->all = gtk_button_new_with_mnemonic (_("_All Types"));
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

GtkWidget *
jvms_event_type_chooser_new_for_lanes (void)
{
  JvmsEventTypeChooser *self = g_object_new (JVMS_TYPE_EVENT_TYPE_CHOOSER, NULL);
  self->lanes = TRUE;
  /* Nothing ticked is no lane, not every type: no "All Types". */
  gtk_widget_set_visible (self->all, FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), _("The event types drawn as lanes"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Event lanes"), -1);
  update_label (self);
  return GTK_WIDGET (self);
}
