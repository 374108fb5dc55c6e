/* test-background.c: work run by jvms_background_run () runs off the calling thread, at the
 * process's niceness plus JVMS_BACKGROUND_NICE (at most 19), and completes its task in the
 * caller's main context, a cancelled task's error included. */
#include "config.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jvms-background.h"

typedef struct
{
  GThread *caller;
  int      nice;    /* the worker thread's niceness */
  gboolean other_thread;
} Seen;

static void
work (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Seen *seen = data;
  seen->other_thread = g_thread_self () != seen->caller;
  errno = 0;
  seen->nice = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_int (task, 42);
}

static void
done (GObject *source, GAsyncResult *result, gpointer data)
{
  GAsyncResult **out = data;
  *out = g_object_ref (result);
}

static GAsyncResult *
run (Seen *seen, GCancellable *cancellable)
{
  GAsyncResult *result = NULL;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, done, &result);
  g_task_set_task_data (task, seen, NULL);
  jvms_background_run (task, work);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return result;
}

static void
test_priority (void)
{
  errno = 0;
  int ours = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
  g_assert_cmpint (errno, ==, 0);
  for (guint i = 0; i < 4; i++)
    {
      Seen seen = { g_thread_self (), 0, FALSE };
      g_autoptr(GAsyncResult) result = run (&seen, NULL);
      g_autoptr(GError) error = NULL;
      g_assert_cmpint (g_task_propagate_int (G_TASK (result), &error), ==, 42);
      g_assert_no_error (error);
      g_assert_true (seen.other_thread);
      g_assert_cmpint (seen.nice, ==, MIN (ours + JVMS_BACKGROUND_NICE, 19));
    }
  /* The caller's own niceness is untouched. */
  g_assert_cmpint (getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid)), ==, ours);

  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  Seen seen = { g_thread_self (), 0, FALSE };
  g_autoptr(GAsyncResult) result = run (&seen, cancellable);
  g_autoptr(GError) error = NULL;
  g_assert_cmpint (g_task_propagate_int (G_TASK (result), &error), ==, -1);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Analysis/background/priority", test_priority);
  return g_test_run ();
}
