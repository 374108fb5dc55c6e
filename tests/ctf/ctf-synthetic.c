#include "ctf-synthetic.h"

#include <gio/gio.h>
#include <string.h>

/* A CTF 1.8 trace shaped like one from lttng-modules 2.13 on Linux 5.15, with what the real
 * test traces lack: syscalls, pid/tid context, two CPUs to merge, discarded events. Plain-text
 * metadata; every field byte-aligned and little-endian, so packets are written field by field. */
static const char metadata[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
  "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
  "typealias integer { size = 8; align = 8; signed = true; encoding = UTF8; } := char_t;\n"
  "trace {\n"
  "  major = 1; minor = 8;\n"
  "  uuid = \"" JVMS_CTF_SYNTHETIC_UUID "\";\n"
  "  byte_order = le;\n"
  "  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };\n"
  "};\n"
  "env {\n"
  "  hostname = \"synthetic-host\";\n"
  "  domain = \"kernel\";\n"
  "  sysname = \"Linux\";\n"
  "  kernel_release = \"5.15.0-91-generic\";\n"
  "  kernel_version = \"#101-Ubuntu SMP\";\n"
  "  tracer_name = \"lttng-modules\";\n"
  "  tracer_major = 2; tracer_minor = 13; tracer_patchlevel = 0;\n"
  "};\n"
  "clock {\n"
  "  name = \"monotonic\";\n"
  "  uuid = \"11111111-2222-3333-4444-555555555555\";\n"
  "  freq = 1000000000;\n"
  "  offset = 1700000000000000000;\n"
  "};\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;\n"
  "stream {\n"
  "  id = 0;\n"
  "  packet.context := struct { uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end;\n"
  "    uint64_t content_size; uint64_t packet_size; uint64_t events_discarded; uint32_t cpu_id; };\n"
  "  event.header := struct { uint32_t id; uint64_clock_t timestamp; };\n"
  "  event.context := struct { int32_t _pid; int32_t _tid; };\n"
  "};\n"
  "event { name = \"sched_switch\"; id = 0; stream_id = 0; fields := struct {\n"
  "  char_t _prev_comm[16]; int32_t _prev_tid; int32_t _prev_prio; int64_t _prev_state;\n"
  "  char_t _next_comm[16]; int32_t _next_tid; int32_t _next_prio; }; };\n"
  "event { name = \"syscall_entry_read\"; id = 1; stream_id = 0; fields := struct {\n"
  "  uint32_t _fd; uint64_t _count; }; };\n"
  "event { name = \"syscall_exit_read\"; id = 2; stream_id = 0; fields := struct {\n"
  "  int64_t _ret; uint64_t _buf; }; };\n"
  "event { name = \"block_rq_issue\"; id = 3; stream_id = 0; fields := struct {\n"
  "  uint32_t _dev; uint64_t _sector; uint32_t _nr_sector; uint32_t _bytes; uint32_t _rwbs; }; };\n"
  "event { name = \"lttng_statedump_process_state\"; id = 4; stream_id = 0; fields := struct {\n"
  "  int32_t _tid; int32_t _vtid; int32_t _pid; int32_t _vpid; char_t _name[16]; }; };\n"
  "event { name = \"timer_start\"; id = 5; stream_id = 0; fields := struct { uint64_t _timer; }; };\n"
  "event { name = \"sched_process_fork\"; id = 6; stream_id = 0; fields := struct {\n"
  "  char_t _parent_comm[16]; int32_t _parent_tid; int32_t _parent_pid;\n"
  "  char_t _child_comm[16]; int32_t _child_tid; int32_t _child_pid; }; };\n";

#define PACKET_SIZE 4096

typedef struct
{
  GByteArray *bytes;
  gsize       packet_start;
  guint64     first_ts, last_ts;
} Writer;

static void
u8 (Writer *w, guint8 v)
{
  g_byte_array_append (w->bytes, &v, 1);
}

static void
u32 (Writer *w, guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);
  g_byte_array_append (w->bytes, (const guint8 *) &le, 4);
}

static void
u64 (Writer *w, guint64 v)
{
  guint64 le = GUINT64_TO_LE (v);
  g_byte_array_append (w->bytes, (const guint8 *) &le, 8);
}

static void
comm (Writer *w, const char *s)
{
  guint8 buf[16] = { 0 };
  strncpy ((char *) buf, s, 15);
  g_byte_array_append (w->bytes, buf, 16);
}

static const guint8 uuid[16] = { 0x2a, 0x1b, 0xda, 0x29, 0xff, 0xc3, 0xe2, 0x48,
                                 0x80, 0x53, 0x81, 0xcc, 0xaf, 0x83, 0x0d, 0x2f };

/* Offsets of the context fields patched when the packet is closed. */
enum { CTX_TS_BEGIN = 24, CTX_TS_END = 32, CTX_CONTENT = 40, CTX_PACKET = 48 };

static void
begin_packet (Writer *w, guint64 discarded, guint32 cpu)
{
  w->packet_start = w->bytes->len;
  w->first_ts = w->last_ts = 0;
  u32 (w, 0xC1FC1FC1);
  g_byte_array_append (w->bytes, uuid, 16);
  u32 (w, 0);
  u64 (w, 0); /* timestamp_begin, patched */
  u64 (w, 0); /* timestamp_end, patched */
  u64 (w, 0); /* content_size, patched */
  u64 (w, 0); /* packet_size, patched */
  u64 (w, discarded);
  u32 (w, cpu);
}

static void
patch64 (Writer *w, gsize at, guint64 v)
{
  guint64 le = GUINT64_TO_LE (v);
  memcpy (w->bytes->data + w->packet_start + at, &le, 8);
}

static void
end_packet (Writer *w, guint64 ts_begin, guint64 ts_end)
{
  gsize content = w->bytes->len - w->packet_start;
  g_assert_cmpuint (content, <=, PACKET_SIZE);
  patch64 (w, CTX_TS_BEGIN, ts_begin);
  patch64 (w, CTX_TS_END, ts_end);
  patch64 (w, CTX_CONTENT, content * 8);
  patch64 (w, CTX_PACKET, PACKET_SIZE * 8);
  while (w->bytes->len - w->packet_start < PACKET_SIZE)
    u8 (w, 0);
}

static void
header (Writer *w, guint32 id, guint64 ts, gint32 pid, gint32 tid)
{
  u32 (w, id);
  u64 (w, ts);
  u32 (w, (guint32) pid);
  u32 (w, (guint32) tid);
}

static void
sched_switch (Writer *w, guint64 ts, const char *prev, gint32 prev_tid, gint64 prev_state,
              const char *next, gint32 next_tid)
{
  header (w, 0, ts, prev_tid, prev_tid);
  comm (w, prev);
  u32 (w, (guint32) prev_tid);
  u32 (w, 20);
  u64 (w, (guint64) prev_state);
  comm (w, next);
  u32 (w, (guint32) next_tid);
  u32 (w, 20);
}

static void
read_pair (Writer *w, guint64 ts, gint32 pid, gint32 tid, gint64 ret)
{
  header (w, 1, ts, pid, tid);
  u32 (w, 3);
  u64 (w, 4096);
  header (w, 2, ts + 700, pid, tid);
  u64 (w, (guint64) ret);
  u64 (w, 0x7fff0000);
}

static void
block_issue (Writer *w, guint64 ts, gint32 pid, gint32 tid)
{
  header (w, 3, ts, pid, tid);
  u32 (w, (8u << 20) | 1u);      /* sda1 */
  u64 (w, 123456);
  u32 (w, 8);
  u32 (w, 4096);
  u32 (w, (1u << 0) | (1u << 5)); /* write, sync: "WS" */
}

static void
timer (Writer *w, guint64 ts, gint32 pid, gint32 tid)
{
  header (w, 5, ts, pid, tid);
  u64 (w, 0xffff888000001000ull);
}

static void
write_file (const char *dir, const char *name, const void *data, gsize len)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  g_file_set_contents (path, data, (gssize) len, &error);
  g_assert_no_error (error);
}

void
ctf_synthetic_write (const char *dir)
{
  ctf_synthetic_write_with_end (dir, 7000);
}

void
ctf_synthetic_write_with_end (const char *dir, guint64 first_packet_end)
{
  write_file (dir, "metadata", metadata, strlen (metadata));

  /* CPU 0: a statedump and a Java thread reading; then, after 3 discarded events, more. */
  Writer w0 = { g_byte_array_new () };
  begin_packet (&w0, 0, 0);
  header (&w0, 4, 1000, 0, 0);
  u32 (&w0, 4242); u32 (&w0, 4242); u32 (&w0, 4200); u32 (&w0, 4200); comm (&w0, "java");
  header (&w0, 4, 1100, 0, 0);
  u32 (&w0, 4200); u32 (&w0, 4200); u32 (&w0, 4200); u32 (&w0, 4200); comm (&w0, "java");
  sched_switch (&w0, 2000, "swapper/0", 0, 0x100, "java", 4242);
  read_pair (&w0, 3000, 4200, 4242, 4096);
  block_issue (&w0, 5000, 4200, 4242);
  sched_switch (&w0, 6000, "java", 4242, 1, "swapper/0", 0);
  end_packet (&w0, 1000, first_packet_end);

  begin_packet (&w0, 3, 0);
  timer (&w0, 9000, 0, 0);
  sched_switch (&w0, 9500, "swapper/0", 0, 0, "java", 4242);
  read_pair (&w0, 10000, 4200, 4242, -11);
  header (&w0, 6, 11000, 4200, 4242);
  comm (&w0, "java"); u32 (&w0, 4242); u32 (&w0, 4200);
  comm (&w0, "java"); u32 (&w0, 4300); u32 (&w0, 4200);
  end_packet (&w0, 8000, 12000);
  write_file (dir, "channel0_0", w0.bytes->data, w0.bytes->len);
  g_byte_array_unref (w0.bytes);

  /* CPU 1: interleaved with CPU 0, never at the same nanosecond. */
  Writer w1 = { g_byte_array_new () };
  begin_packet (&w1, 0, 1);
  timer (&w1, 1500, 0, 0);
  sched_switch (&w1, 2500, "swapper/1", 0, 0, "kworker/1:1", 77);
  timer (&w1, 4000, 0, 77);
  sched_switch (&w1, 8500, "kworker/1:1", 77, 0x80, "swapper/1", 0);
  read_pair (&w1, 10500, 4200, 4300, 0);
  end_packet (&w1, 1500, 12000);
  write_file (dir, "channel0_1", w1.bytes->data, w1.bytes->len);
  g_byte_array_unref (w1.bytes);
}

void
ctf_synthetic_write_with_classes (const char *dir, guint n_extra)
{
  ctf_synthetic_write (dir);
  g_autoptr(GString) text = g_string_new (metadata);
  for (guint i = 0; i < n_extra; i++)
    g_string_append_printf (text, "event { name = \"extra_%u\"; id = %u; stream_id = 0; "
                            "fields := struct { uint32_t _a; }; };\n", i, 100 + i);
  write_file (dir, "metadata", text->str, text->len);
}
