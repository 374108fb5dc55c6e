/* jvms-history-summary-pool.c: the rows of a summary query on a complete history, spread over
 * the cores. Rows are independent: each thread computes whole rows with its own buffers, kept
 * from query to query; the node cache and the blob buffers are safe to share or per thread. */
#include "jvms-history-summary-private.h"

static void
row_buffers_free (gpointer data)
{
  RowBuffers *b = data;
  g_array_unref (b->segs);
  g_array_unref (b->scratch);
  g_array_unref (b->changes);
  g_free (b->cols);
  g_free (b->cut);
  g_free (b);
}

static GPrivate row_buffers_key = G_PRIVATE_INIT (row_buffers_free);

/* The calling thread's buffers, with room for @n_columns columns. */
static RowBuffers *
row_buffers_get (guint n_columns)
{
  RowBuffers *b = g_private_get (&row_buffers_key);
  if (b == NULL)
    {
      b = g_new0 (RowBuffers, 1);
      b->segs = g_array_new (FALSE, FALSE, sizeof (Seg));
      b->scratch = g_array_new (FALSE, FALSE, sizeof (Bucket));
      b->changes = g_array_new (FALSE, FALSE, sizeof (Change));
      g_private_set (&row_buffers_key, b);
    }
  if (b->n_cols < n_columns)
    {
      g_free (b->cols);
      g_free (b->cut);
      b->cols = g_new0 (Col, n_columns); /* zero durations: col_reset clears only those used */
      b->cut = g_new0 (guint8, n_columns);
      b->n_cols = n_columns;
    }
  return b;
}

/* The rows of one query, taken one at a time by the calling thread and by helpers of a shared
 * pool: a view's fifty rows at a new zoom level read and decode thousands of small blobs, and
 * the rows are independent (the node cache and the blob buffers are safe to share or per
 * thread). The caller waits for every helper it asked for, so the job may live on its stack. */
typedef struct
{
  JvmsHistory         *h;
  const Cols          *k;
  const JvmsAttribute *attributes;
  guint                n_attributes;
  gint                 level;
  const JvmsSummaryQueryFlags *row_flags; /* per row, or NULL: all rows @flags */
  JvmsSummaryQueryFlags        flags;
  JvmsSummaryCell     *cells;
  gint                 next;    /* atomic: the next row to take */
  gint                 failed;  /* atomic: stop taking rows */
  GMutex               lock;
  GCond                cond;
  guint                helpers; /* helpers not finished yet */
  GError              *error;   /* the first */
} RowJob;

static void
row_job_work (RowJob *job)
{
  RowBuffers *b = row_buffers_get (job->k->n);
  for (;;)
    {
      gint i = g_atomic_int_add (&job->next, 1);
      if (i >= (gint) job->n_attributes || g_atomic_int_get (&job->failed))
        break;
      GError *local = NULL;
      JvmsSummaryQueryFlags flags = job->row_flags ? job->row_flags[i] : job->flags;
      if (!jvms_summary_complete_row (job->h, job->k, job->attributes[i], job->level, flags,
                                      b, job->cells + (gsize) i * job->k->n, &local))
        {
          g_atomic_int_set (&job->failed, 1);
          g_mutex_lock (&job->lock);
          if (job->error == NULL)
            job->error = local;
          else
            g_error_free (local);
          g_mutex_unlock (&job->lock);
          break;
        }
    }
}

static void
row_job_help (gpointer data, gpointer user_data)
{
  RowJob *job = data;
  row_job_work (job);
  g_mutex_lock (&job->lock);
  job->helpers--;
  g_cond_signal (&job->cond);
  g_mutex_unlock (&job->lock);
}

static GThreadPool *
row_pool (guint *n_helpers)
{
  static GThreadPool *pool;
  static guint helpers;
  if (g_once_init_enter (&pool))
    {
      /* One helper per further core, a few at most: beyond that the blob reads contend. */
      helpers = CLAMP (g_get_num_processors (), 1, 8) - 1;
      GThreadPool *p = helpers > 0 ? g_thread_pool_new (row_job_help, NULL, (gint) helpers, FALSE, NULL)
                                   : NULL;
      g_once_init_leave (&pool, p ? p : (GThreadPool *) 1);
    }
  *n_helpers = helpers;
  return pool == (GThreadPool *) 1 ? NULL : pool;
}

/* Rows under this many are done by the caller alone: a helper's start-up would cost more. */
#define ROWS_PER_HELPER 4

gboolean
jvms_summary_complete_rows (JvmsHistory *h, const Cols *k, const JvmsAttribute *attributes,
                            guint n_attributes, gint level,
                            const JvmsSummaryQueryFlags *row_flags, JvmsSummaryQueryFlags flags,
                            JvmsSummaryCell *cells, GError **error)
{
  RowJob job = { h, k, attributes, n_attributes, level, row_flags, flags, cells, 0, 0 };
  guint n_helpers = 0;
  GThreadPool *pool = row_pool (&n_helpers);
  n_helpers = MIN (n_helpers, n_attributes / ROWS_PER_HELPER);
  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  job.helpers = n_helpers;
  for (guint i = 0; i < n_helpers; i++)
    g_thread_pool_push (pool, &job, NULL);
  row_job_work (&job);
  g_mutex_lock (&job.lock);
  while (job.helpers > 0)
    g_cond_wait (&job.cond, &job.lock);
  g_mutex_unlock (&job.lock);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.cond);
  if (job.error != NULL)
    {
      g_propagate_error (error, job.error);
      return FALSE;
    }
  return TRUE;
}
