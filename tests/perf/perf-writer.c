/* perf-writer.c: see perf-writer.h. */
#include "perf-writer.h"

#include <linux/perf_event.h>
#include <string.h>

#define HEADER_SIZE 104
#define ATTR_BYTES  PERF_ATTR_SIZE_VER5
#define SAMPLE_TYPE (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static void
put (GByteArray *b, const void *data, gsize len)
{
  g_byte_array_append (b, data, (guint) len);
}

static void
put_u64 (GByteArray *b, guint64 v)
{
  put (b, &v, 8);
}

static void
put_u32 (GByteArray *b, guint32 v)
{
  put (b, &v, 4);
}

GBytes *
perf_shape_shared_ids (guint n_attrs, guint n_ids, gboolean shift, guint n_samples)
{
  g_return_val_if_fail (n_attrs > 0 && n_ids > 0, NULL);
  guint64 attr_size = ATTR_BYTES + 16;
  guint64 attrs_at = HEADER_SIZE;
  guint64 ids_at = attrs_at + n_attrs * attr_size;
  /* a shifted section of attr i is [i, i + n_ids): the table holds n_ids + n_attrs - 1 ids */
  guint64 table = shift ? (guint64) n_ids + n_attrs - 1 : n_ids;
  guint64 data_at = ids_at + table * 8;
  guint64 sample_size = 8 + 8 + 8 + 8 + 8 + 8;
  guint64 data_size = (guint64) n_samples * sample_size;

  GByteArray *b = g_byte_array_new ();
  put (b, "PERFILE2", 8);
  put_u64 (b, HEADER_SIZE);
  put_u64 (b, attr_size);
  put_u64 (b, attrs_at);
  put_u64 (b, n_attrs * attr_size);
  put_u64 (b, data_at);
  put_u64 (b, data_size);
  put_u64 (b, 0);            /* event_types */
  put_u64 (b, 0);
  for (int i = 0; i < 4; i++)
    put_u64 (b, 0);          /* no feature */
  g_assert_cmpuint (b->len, ==, HEADER_SIZE);

  for (guint i = 0; i < n_attrs; i++)
    {
      struct perf_event_attr attr;
      memset (&attr, 0, sizeof attr);
      attr.type = PERF_TYPE_SOFTWARE;
      attr.size = ATTR_BYTES;
      attr.config = PERF_COUNT_SW_CPU_CLOCK;
      attr.sample_period = 1000000;
      attr.sample_type = SAMPLE_TYPE;
      attr.sample_id_all = 1;
      put (b, &attr, ATTR_BYTES);
      put_u64 (b, ids_at + (shift ? (guint64) i * 8 : 0));
      put_u64 (b, (guint64) n_ids * 8);
    }
  for (guint64 k = 0; k < table; k++)
    put_u64 (b, k);
  g_assert_cmpuint (b->len, ==, data_at);
  for (guint k = 0; k < n_samples; k++)
    {
      struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, (guint16) sample_size };
      put (b, &h, sizeof h);
      put_u32 (b, 100);                    /* pid */
      put_u32 (b, 100 + k % 4);            /* tid */
      put_u64 (b, 1000000000 + (guint64) k * 1000);  /* time */
      put_u64 (b, k % n_ids);              /* id */
      put_u32 (b, k % 2);                  /* cpu */
      put_u32 (b, 0);
      put_u64 (b, 1000000);                /* period */
    }
  return g_byte_array_free_to_bytes (b);
}
