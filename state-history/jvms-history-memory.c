/* jvms-history-memory.c: memory for the summary blobs the node cache keeps, touched ahead of use.
 *
 * Why: a blob kept in the cache is copied into fresh memory, and the first write to each page of
 * it faults the page in. On the virtual machines this project is measured on, that costs 10 to
 * 35 µs a page, against 2 µs to read the same 4 KiB from the page cache: a view's first frame at
 * a new zoom keeps a megabyte or two of summary blobs, and a third of its time went to page faults.
 *
 * So blocks are carved from 2 MiB regions that a thread at SCHED_IDLE maps and touches ahead of
 * use, on cores that would otherwise idle, a few regions ahead. A freed block goes to a free list
 * per size class (512 bytes apart) and is reused, split when a larger one is all there is, so
 * memory touched once stays touched: nothing goes back to the kernel. The cache's budget bounds
 * the blocks in use; the free lists hold what it evicted. Blocks over 128 KiB, which summary
 * blobs do not reach, come from g_malloc.
 *
 * Under AddressSanitizer free and unused memory is poisoned, so that a use after free of a node
 * is still reported. */
#include "jvms-history-private.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define POISON(p, n)   ASAN_POISON_MEMORY_REGION (p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION (p, n)
#else
#define POISON(p, n)   ((void) (p), (void) (n))
#define UNPOISON(p, n) ((void) (p), (void) (n))
#endif

#define CLASS_BYTES  512u
#define N_CLASSES    256u /* blocks up to 128 KiB */
#define REGION_BYTES ((gsize) 2 << 20)
#define READY        8u   /* regions touched ahead: 16 MiB, the blobs of a few cold frames */

typedef struct FreeBlock FreeBlock;
struct FreeBlock
{
  FreeBlock *next;
};

typedef struct
{
  GMutex     lock;
  GCond      wanted;                 /* the toucher waits on it */
  FreeBlock *free[N_CLASSES + 1];    /* free[c]: blocks of exactly c classes */
  guint64    nonempty[(N_CLASSES + 1 + 63) / 64];
  guint8    *bump, *bump_end;        /* the region being carved */
  guint8    *ready[READY];           /* touched regions not carved yet */
  guint      n_ready;
  guint64    regions;                /* carved so far */
} Pool;

static Pool pool;

static inline guint
class_of (gsize size)
{
  return (guint) ((size + CLASS_BYTES - 1) / CLASS_BYTES);
}

static void
free_push (guint c, gpointer block)
{
  FreeBlock *b = block;
  UNPOISON (b, sizeof *b);
  b->next = pool.free[c];
  POISON (b, (gsize) c * CLASS_BYTES);
  pool.free[c] = b;
  pool.nonempty[c / 64] |= G_GUINT64_CONSTANT (1) << (c % 64);
}

static gpointer
free_pop (guint c)
{
  FreeBlock *b = pool.free[c];
  UNPOISON (b, sizeof *b);
  pool.free[c] = b->next;
  if (pool.free[c] == NULL)
    pool.nonempty[c / 64] &= ~(G_GUINT64_CONSTANT (1) << (c % 64));
  return b;
}

/* The smallest class >= @c with a free block, or 0. */
static guint
free_class_from (guint c)
{
  for (guint w = c / 64; w < G_N_ELEMENTS (pool.nonempty); w++)
    {
      guint64 bits = pool.nonempty[w];
      if (w == c / 64)
        bits &= ~G_GUINT64_CONSTANT (0) << (c % 64);
      if (bits != 0)
        return w * 64 + (guint) __builtin_ctzll (bits);
    }
  return 0;
}

static guint8 *
region_map (void)
{
  void *p = mmap (NULL, REGION_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static gpointer
toucher_main (gpointer data)
{
  /* Only on an idle core: the frames this work is for must not wait for it. */
  struct sched_param param = { 0 };
  pthread_setschedparam (pthread_self (), SCHED_IDLE, &param);
  for (;;)
    {
      g_mutex_lock (&pool.lock);
      while (pool.n_ready == READY)
        g_cond_wait (&pool.wanted, &pool.lock);
      g_mutex_unlock (&pool.lock);
      guint8 *r = region_map ();
      if (r == NULL)
        {
          g_usleep (G_USEC_PER_SEC);
          continue;
        }
      for (gsize i = 0; i < REGION_BYTES; i += 4096)
        ((volatile guint8 *) r)[i] = 0;
      POISON (r, REGION_BYTES);
      g_mutex_lock (&pool.lock);
      pool.ready[pool.n_ready++] = r;
      g_mutex_unlock (&pool.lock);
    }
  return NULL;
}

void
jvms_node_memory_prepare (void)
{
  static gsize started;
  if (g_once_init_enter (&started))
    {
      g_thread_unref (g_thread_new ("jvms-touch", toucher_main, NULL));
      g_once_init_leave (&started, 1);
    }
}

/* A new region to carve (lock held): a touched one when the toucher has one ready. */
static gboolean
region_next (void)
{
  jvms_node_memory_prepare ();
  /* The rest of the old region serves its size class. */
  if (pool.bump_end - pool.bump >= CLASS_BYTES)
    {
      guint c = (guint) ((gsize) (pool.bump_end - pool.bump) / CLASS_BYTES);
      free_push (MIN (c, N_CLASSES), pool.bump);
    }
  guint8 *r;
  if (pool.n_ready > 0)
    r = pool.ready[--pool.n_ready];
  else if ((r = region_map ()) != NULL)
    POISON (r, REGION_BYTES);
  g_cond_signal (&pool.wanted);
  if (r == NULL)
    return FALSE;
  pool.regions++;
  pool.bump = r;
  pool.bump_end = r + REGION_BYTES;
  return TRUE;
}

/* A block of at least @size bytes, for a node the cache will keep; free it with
 * jvms_node_memory_free and the same @size. NULL when out of memory. */
gpointer
jvms_node_memory_alloc (gsize size)
{
  guint c = class_of (MAX (size, sizeof (FreeBlock)));
  if (c > N_CLASSES)
    return g_try_malloc (size);
  gsize bytes = (gsize) c * CLASS_BYTES;
  gpointer block = NULL;
  g_mutex_lock (&pool.lock);
  guint from = free_class_from (c);
  if (from != 0)
    {
      block = free_pop (from);
      /* Split: the rest serves smaller blocks. */
      if (from > c)
        free_push (from - c, (guint8 *) block + bytes);
    }
  else if (pool.bump_end - pool.bump >= (gssize) bytes || region_next ())
    {
      block = pool.bump;
      pool.bump += bytes;
    }
  g_mutex_unlock (&pool.lock);
  if (block != NULL)
    UNPOISON (block, size);
  return block;
}

void
jvms_node_memory_free (gpointer block, gsize size)
{
  guint c = class_of (MAX (size, sizeof (FreeBlock)));
  if (block == NULL)
    return;
  if (c > N_CLASSES)
    {
      g_free (block);
      return;
    }
  g_mutex_lock (&pool.lock);
  free_push (c, block);
  g_mutex_unlock (&pool.lock);
}

guint64
jvms_node_memory_regions (void)
{
  g_mutex_lock (&pool.lock);
  guint64 n = pool.regions;
  g_mutex_unlock (&pool.lock);
  return n;
}
