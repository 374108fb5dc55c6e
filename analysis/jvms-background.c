/* jvms-background.c: background threads of lower priority (see the header). */
#include "config.h"

#include "jvms-background.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Threads that may run at once: the statistics and an order of the event table, and the event
 * lanes' exact counts. */
#define MAX_THREADS 3

typedef struct
{
  GTask           *task;
  GTaskThreadFunc  func;
} Job;

static void
lower_this_thread (void)
{
  static GPrivate lowered;
  if (g_private_get (&lowered) != NULL)
    return;
  g_private_set (&lowered, GINT_TO_POINTER (1));
  errno = 0;
  int nice = getpriority (PRIO_PROCESS, 0);
  if (nice == -1 && errno != 0)
    return;
  /* Linux: PRIO_PROCESS with a thread id sets that thread's niceness alone. Failing leaves it
   * as it was: slower frames, not wrong results. */
  (void) setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), MIN (nice + JVMS_BACKGROUND_NICE, 19));
}

static void
run_job (gpointer data, gpointer pool_data)
{
  Job *job = data;
  lower_this_thread ();
  job->func (job->task, g_task_get_source_object (job->task), g_task_get_task_data (job->task),
             g_task_get_cancellable (job->task));
  g_object_unref (job->task);
  g_free (job);
}

void
jvms_background_run (GTask *task, GTaskThreadFunc func)
{
  static GThreadPool *pool;
  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (run_job, NULL, MAX_THREADS, FALSE, NULL));
  Job *job = g_new (Job, 1);
  job->task = g_object_ref (task);
  job->func = func;
  g_thread_pool_push (pool, job, NULL);
}
