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

/* The file header: @n_attrs entries of an attr and its ids section right after it, the data
 * section, and the first word of the features bitmap. */
static void
put_header (GByteArray *b, guint n_attrs, guint64 data_at, guint64 data_size, guint64 features)
{
  guint64 attr_size = ATTR_BYTES + 16;
  put (b, "PERFILE2", 8);
  put_u64 (b, HEADER_SIZE);
  put_u64 (b, attr_size);
  put_u64 (b, HEADER_SIZE);  /* attrs */
  put_u64 (b, n_attrs * attr_size);
  put_u64 (b, data_at);
  put_u64 (b, data_size);
  put_u64 (b, 0);            /* event_types */
  put_u64 (b, 0);
  put_u64 (b, features);
  for (int i = 1; i < 4; i++)
    put_u64 (b, 0);
  g_assert_cmpuint (b->len, ==, HEADER_SIZE);
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
  put_header (b, n_attrs, data_at, data_size, 0);

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

/* The ftrace files perf record copies into TRACING_DATA (tools/perf/util/trace-event-info.c),
 * as this machine's kernel (6.1) has them; sched_switch's print format shortened. */
#define SCHED_SWITCH_ID 372
static const char header_page[] =
  "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] =
  "# compressed entry header\n"
  "\ttype_len    :    5 bits\n"
  "\ttime_delta  :   27 bits\n"
  "\tarray       :   32 bits\n"
  "\n"
  "\tpadding     : type == 29\n"
  "\ttime_extend : type == 30\n"
  "\ttime_stamp : type == 31\n"
  "\tdata max type_len  == 28\n";
static const char sched_switch_format[] =
  "name: sched_switch\n"
  "ID: 372\n"
  "format:\n"
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
  "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
  "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
  "\n"
  "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
  "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
  "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
  "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
  "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
  "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
  "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
  "\n"
  "print fmt: \"prev_comm=%s prev_pid=%d ==> next_comm=%s next_pid=%d\", "
  "REC->prev_comm, REC->prev_pid, REC->next_comm, REC->next_pid\n";

static void
put_text (GByteArray *b, const char *text)
{
  put_u64 (b, strlen (text));
  put (b, text, strlen (text));
}

/* TRACING_DATA version 0.6, little-endian, 8-byte longs. */
static void
put_tracing_data (GByteArray *b)
{
  put (b, "\x17\x08\x44tracing", 10);
  put (b, "0.6", 4);
  guint8 endian_and_long[2] = { 0, 8 };
  put (b, endian_and_long, 2);
  put_u32 (b, 4096);                   /* page size */
  put (b, "header_page", 12);
  put_text (b, header_page);
  put (b, "header_event", 13);
  put_text (b, header_event);
  put_u32 (b, 0);                      /* ftrace formats */
  put_u32 (b, 1);                      /* systems */
  put (b, "sched", 6);
  put_u32 (b, 1);
  put_text (b, sched_switch_format);
  put_u32 (b, 0);                      /* kallsyms */
  put_u32 (b, 0);                      /* printk formats */
  put_u64 (b, 0);                      /* saved cmdlines */
}

GBytes *
perf_shape_group_reads (const PerfGroupRead *reads, guint n_reads)
{
  const guint64 sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME
                              | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ
                              | PERF_SAMPLE_RAW;
  guint64 attr_size = ATTR_BYTES + 16;
  guint64 attrs_at = HEADER_SIZE;
  guint64 ids_at = attrs_at + 2 * attr_size;
  guint64 data_at = ids_at + 2 * 8;
  /* header, identifier, pid/tid, time, cpu/res, period; read: nr, then { value, id } x 2;
   * raw: u32 size, then sched_switch's 64 bytes and 4 of padding */
  guint64 sample_size = 8 + 8 + 8 + 8 + 8 + 8 + 8 + 2 * 16 + 4 + 68;
  guint64 data_size = (guint64) n_reads * sample_size;

  GByteArray *b = g_byte_array_new ();
  put_header (b, 2, data_at, data_size, G_GUINT64_CONSTANT (1) << 1 /* TRACING_DATA */);

  for (guint i = 0; i < 2; i++)
    {
      struct perf_event_attr attr;
      memset (&attr, 0, sizeof attr);
      attr.size = ATTR_BYTES;
      attr.sample_period = 1;
      attr.sample_type = sample_type;
      attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
      attr.sample_id_all = 1;
      attr.exclude_guest = 1;  /* perf record's default: no modifier in perf script's names */
      if (i == 0)
        {
          attr.type = PERF_TYPE_TRACEPOINT;
          attr.config = SCHED_SWITCH_ID;
        }
      else
        {
          /* a member of a :S group is read, never sampled */
          attr.type = PERF_TYPE_SOFTWARE;
          attr.config = PERF_COUNT_SW_PAGE_FAULTS;
          attr.sample_period = 0;
        }
      put (b, &attr, ATTR_BYTES);
      put_u64 (b, ids_at + (guint64) i * 8);
      put_u64 (b, 8);
    }
  put_u64 (b, 1);
  put_u64 (b, 2);
  g_assert_cmpuint (b->len, ==, data_at);
  guint64 time = 1000000000;
  for (guint k = 0; k < n_reads; k++)
    {
      if (k == 0 || memcmp (&reads[k], &reads[k - 1], sizeof reads[k]) != 0)
        time = 1000000000 + (guint64) k * 1000;
      struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, (guint16) sample_size };
      put (b, &h, sizeof h);
      put_u64 (b, 1);                      /* identifier: the leader's */
      put_u32 (b, 100);                    /* pid */
      put_u32 (b, 101);                    /* tid */
      put_u64 (b, time);
      put_u32 (b, 0);                      /* cpu */
      put_u32 (b, 0);
      put_u64 (b, 1);                      /* period */
      put_u64 (b, 2);                      /* nr */
      put_u64 (b, reads[k].leader);
      put_u64 (b, 1);
      put_u64 (b, reads[k].member);
      put_u64 (b, 2);
      put_u32 (b, 68);
      guint8 raw[68] = { 0 };
      guint16 common_type = SCHED_SWITCH_ID;
      gint32 prev_pid = 101, common_pid = 101, prio = 120;
      memcpy (raw, &common_type, 2);
      memcpy (raw + 4, &common_pid, 4);
      memcpy (raw + 8, "worker", 6);
      memcpy (raw + 24, &prev_pid, 4);
      memcpy (raw + 28, &prio, 4);
      memcpy (raw + 40, "swapper/0", 9);  /* next_pid 0 */
      memcpy (raw + 60, &prio, 4);
      put (b, raw, sizeof raw);
    }
  g_assert_cmpuint (b->len, ==, data_at + data_size);
  /* the feature sections' table, then TRACING_DATA */
  guint64 tracing_at = data_at + data_size + 16;
  put_u64 (b, tracing_at);
  gsize size_at = b->len;
  put_u64 (b, 0);
  put_tracing_data (b);
  guint64 tracing_size = b->len - tracing_at;
  memcpy (b->data + size_at, &tracing_size, 8);
  return g_byte_array_free_to_bytes (b);
}
