/* perf-tracing.c: TRACING_DATA (the trace-cmd "tracing" layout, versions 0.5 and 0.6):
 *   "\x17\x08\x44tracing" version "0.6\0", u8 big_endian, u8 long_size, u32 page_size,
 *   "header_page\0" u64 size + text, "header_event\0" u64 size + text,
 *   u32 count of ftrace formats, each u64 size + text,
 *   u32 count of systems, each: system name NUL-terminated, u32 count, each u64 size + text,
 *   then kallsyms, printk formats and saved cmdlines, which this reader does not need.
 */
#include "perf-tracing.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "jvms-perf.h"

struct _PerfTracing
{
  struct tep_handle *tep;
  GHashTable        *decoders; /* event id -> PerfTpDecoder */
};

typedef struct
{
  const guint8 *data;
  gsize         size;
  gsize         pos;
  const char   *file;
  guint64       base;
} Cursor;

static gboolean
need (Cursor *c, gsize n, const char *what, GError **error)
{
  if (c->size - c->pos >= n)
    return TRUE;
  g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_TRUNCATED,
               "%s: TRACING_DATA at offset %" G_GUINT64_FORMAT ": %s needs %" G_GSIZE_FORMAT
               " bytes, %" G_GSIZE_FORMAT " remain in the section",
               c->file, c->base + c->pos, what, n, c->size - c->pos);
  return FALSE;
}

static gboolean
read_u32 (Cursor *c, guint32 *out, const char *what, GError **error)
{
  if (!need (c, 4, what, error))
    return FALSE;
  memcpy (out, c->data + c->pos, 4);
  c->pos += 4;
  return TRUE;
}

static gboolean
read_u64 (Cursor *c, guint64 *out, const char *what, GError **error)
{
  if (!need (c, 8, what, error))
    return FALSE;
  memcpy (out, c->data + c->pos, 8);
  c->pos += 8;
  return TRUE;
}

/* A NUL-terminated string inside the section, returned in place. */
static const char *
read_cstr (Cursor *c, const char *what, GError **error)
{
  const guint8 *start = c->data + c->pos;
  const guint8 *nul = memchr (start, '\0', c->size - c->pos);
  if (nul == NULL)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_TRUNCATED,
                   "%s: TRACING_DATA at offset %" G_GUINT64_FORMAT ": %s is not terminated "
                   "before the end of the section", c->file, c->base + c->pos, what);
      return NULL;
    }
  c->pos += (gsize) (nul - start) + 1;
  return (const char *) start;
}

/* A u64-sized blob, checked against what remains. */
static const guint8 *
read_blob (Cursor *c, gsize *len, const char *what, GError **error)
{
  guint64 size;
  if (!read_u64 (c, &size, what, error))
    return NULL;
  if (size > c->size - c->pos)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                   "%s: TRACING_DATA at offset %" G_GUINT64_FORMAT ": %s declares %" G_GUINT64_FORMAT
                   " bytes, %" G_GSIZE_FORMAT " remain in the section",
                   c->file, c->base + c->pos - 8, what, size, c->size - c->pos);
      return NULL;
    }
  const guint8 *blob = c->data + c->pos;
  c->pos += size;
  *len = size;
  return blob;
}

static void
decoder_free (gpointer data)
{
  PerfTpDecoder *d = data;
  g_free (d->name);
  g_free (d);
}

void
perf_tracing_free (PerfTracing *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->decoders, g_hash_table_unref);
  if (self->tep != NULL)
    tep_free (self->tep);
  g_free (self);
}

static void
field_from_tep (PerfField *out, struct tep_event *event, const char *name)
{
  /* common_flags and the like are common fields, the others the event's own. */
  struct tep_format_field *f = g_str_has_prefix (name, "common_") ? tep_find_common_field (event, name)
                                                                   : tep_find_field (event, name);
  memset (out, 0, sizeof *out);
  if (f == NULL || f->offset < 0 || f->size <= 0)
    return;
  out->offset = (guint32) f->offset;
  out->size = (guint32) f->size;
  out->flags = PERF_FIELD_PRESENT;
  if (f->flags & TEP_FIELD_IS_SIGNED)
    out->flags |= PERF_FIELD_SIGNED;
  if (f->flags & TEP_FIELD_IS_DYNAMIC)
    out->flags |= PERF_FIELD_DYNAMIC;
  if (f->flags & TEP_FIELD_IS_RELATIVE)
    out->flags |= PERF_FIELD_RELATIVE;
}

static guint32
state_letter_bit (const char *s)
{
  if (s == NULL || s[0] == '\0' || s[1] != '\0')
    return 0;
  switch (s[0])
    {
    case 'S': return JVMS_TASK_INTERRUPTIBLE;
    case 'D': return JVMS_TASK_UNINTERRUPTIBLE;
    case 'T': return JVMS_TASK_STOPPED;
    case 't': return JVMS_TASK_TRACED;
    case 'X': case 'x': return JVMS_TASK_DEAD;
    case 'Z': return JVMS_TASK_ZOMBIE;
    case 'P': return JVMS_TASK_PARKED;
    case 'I': return JVMS_TASK_IDLE;
    default: return 0; /* K (wakekill), W (waking), N (noload): no report state of their own */
    }
}

/* The prev_state letters of this kernel: the { value, "letter" } pairs of the print fmt's
 * __print_flags, scanned by hand (see safe_format_length); the modern TASK_REPORT layout when
 * the format has no usable table. */
static void
build_state_map (PerfTpDecoder *d, const char *print, gsize len)
{
  guint32 highest = 0;
  const char *end = print + len;
  const char *p = print != NULL ? g_strstr_len (print, (gssize) len, "__print_flags(") : NULL;
  while (p != NULL && p < end)
    {
      const char *open = memchr (p, '{', (gsize) (end - p));
      if (open == NULL)
        break;
      const char *close = memchr (open, '}', (gsize) (end - open));
      if (close == NULL)
        break;
      g_autofree char *pair = g_strndup (open + 1, (gsize) (close - open - 1));
      char *endnum = NULL;
      guint64 value = g_ascii_strtoull (g_strstrip (pair), &endnum, 0);
      const char *q1 = strchr (endnum, '"');
      const char *q2 = q1 != NULL ? strchr (q1 + 1, '"') : NULL;
      if (value != 0 && (value & (value - 1)) == 0 && value <= (1u << 30) && q2 != NULL)
        {
          g_autofree char *letter = g_strndup (q1 + 1, (gsize) (q2 - q1 - 1));
          guint bit = (guint) g_bit_nth_lsf ((gulong) value, -1);
          d->state_map[bit] = state_letter_bit (letter);
          highest = MAX (highest, (guint32) value);
        }
      p = close + 1;
      /* The table ends at the parenthesis closing __print_flags. */
      const char *next_open = memchr (p, '{', (gsize) (end - p));
      const char *paren = memchr (p, ')', (gsize) (end - p));
      if (next_open == NULL || (paren != NULL && paren < next_open))
        break;
    }
  if (highest == 0)
    {
      for (guint bit = 0; bit < 8; bit++)
        d->state_map[bit] = 1u << bit;
      highest = 0x80;
    }
  d->preempt_bit = highest << 1;
}

static void
setup_decoder (PerfTpDecoder *d, struct tep_event *event, const char *print, gsize print_len)
{
  static const struct
  {
    const char          *system, *name;
    JvmsKernelEventType  type;
    const char          *fields[PERF_TP_MAX_FIELDS];
  } known[] = {
    { "sched", "sched_switch", JVMS_KERNEL_EVENT_SCHED_SWITCH,
      { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio" } },
    { "sched", "sched_waking", JVMS_KERNEL_EVENT_SCHED_WAKING, { "comm", "pid", "target_cpu", "common_flags" } },
    { "sched", "sched_wakeup", JVMS_KERNEL_EVENT_SCHED_WAKEUP, { "comm", "pid", "target_cpu", "common_flags" } },
    { "sched", "sched_wakeup_new", JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW, { "comm", "pid", "target_cpu", "common_flags" } },
    { "sched", "sched_migrate_task", JVMS_KERNEL_EVENT_SCHED_MIGRATE,
      { "comm", "pid", "orig_cpu", "dest_cpu" } },
    { "sched", "sched_process_fork", JVMS_KERNEL_EVENT_PROCESS_FORK,
      { "parent_comm", "parent_pid", "child_comm", "child_pid" } },
    { "sched", "sched_process_exec", JVMS_KERNEL_EVENT_PROCESS_EXEC, { "filename", "pid", "old_pid" } },
    { "sched", "sched_process_exit", JVMS_KERNEL_EVENT_PROCESS_EXIT, { "comm", "pid" } },
    { "raw_syscalls", "sys_enter", JVMS_KERNEL_EVENT_SYSCALL_ENTER, { "id" } },
    { "raw_syscalls", "sys_exit", JVMS_KERNEL_EVENT_SYSCALL_EXIT, { "id", "ret" } },
    { "block", "block_rq_insert", JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT, { "dev", "sector", "nr_sector", "rwbs" } },
    { "block", "block_rq_issue", JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE, { "dev", "sector", "nr_sector", "rwbs" } },
    { "block", "block_rq_complete", JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE, { "dev", "sector", "nr_sector", "rwbs" } },
  };

  d->type = JVMS_KERNEL_EVENT_OTHER;
  for (gsize i = 0; i < G_N_ELEMENTS (known); i++)
    {
      if (g_strcmp0 (event->system, known[i].system) != 0 || g_strcmp0 (event->name, known[i].name) != 0)
        continue;
      d->type = known[i].type;
      for (guint f = 0; f < PERF_TP_MAX_FIELDS && known[i].fields[f] != NULL; f++)
        field_from_tep (&d->fields[f], event, known[i].fields[f]);
      if (d->type == JVMS_KERNEL_EVENT_SCHED_SWITCH)
        build_state_map (d, print, print_len);
      break;
    }
}

/* The lines before "print fmt:" exactly as the kernel writes them. Brackets before the field
 * name come only after the type of a dynamic array, "__data_loc char[] filename" (the kernel's
 * __dynamic_array and __rel_dynamic_array): libtraceevent 1.7.1 (and 1.8.4) leaks the first
 * word of a field line whose one-word type is followed by brackets, "field:char[] filename;"
 * (event_read_fields fails with "no type found" without freeing it; fuzz finding ce42f828). */
static gboolean
header_is_well_formed (const char *text, gsize len)
{
  static GRegex *line_re;
  static gsize once;
  if (g_once_init_enter (&once))
    {
      line_re = g_regex_new (
      "^(name: [A-Za-z_][A-Za-z0-9_]*|ID: [0-9]{1,9}|format:|"
      "\\tfield:((__data_loc|__rel_loc) [A-Za-z_][A-Za-z0-9_ *]*\\[\\]|[A-Za-z_][A-Za-z0-9_ *]*)"
      " [A-Za-z_][A-Za-z0-9_]*(\\[[0-9]{1,6}\\])?;"
      "\\toffset:[0-9]{1,6};\\tsize:[0-9]{1,6};\\tsigned:[01];|)$", G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&once, 1);
    }
  const char *end = text + len;
  guint n = 0;
  for (const char *p = text; p < end; n++)
    {
      const char *eol = memchr (p, '\n', (gsize) (end - p));
      if (eol == NULL)
        eol = end;
      g_autofree char *line = g_strndup (p, (gsize) (eol - p));
      if (strlen (line) != (gsize) (eol - p) || !g_regex_match (line_re, line, 0, NULL))
        return FALSE;
      p = eol + 1;
    }
  return n >= 3;
}

/* libtraceevent 1.7.1 crashes on some damaged formats: a print fmt naming a field the format
 * does not declare (one byte flipped in sched_switch's "REC->prev_state"), a damaged array size
 * in a field line, a constant "0%0" in a print fmt. Only the field lines are handed to it, and
 * only when every line is exactly as the kernel writes them: the returned length (0 when not).
 * The print fmt is never needed by libtraceevent here: the one table this reader uses from it
 * (prev_state letters) is scanned by find_state_flags(). */
static gsize
safe_format_length (const char *text, gsize len)
{
  const char *print = g_strstr_len (text, (gssize) len, "print fmt:");
  gsize head = print != NULL ? (gsize) (print - text) : len;
  return header_is_well_formed (text, head) ? head : 0;
}

static void
add_event (PerfTracing *self, const guint8 *text, gsize len, const char *system,
           Cursor *c, guint64 text_offset, GPtrArray *warnings)
{
  struct tep_event *event = NULL;
  gsize safe_len = safe_format_length ((const char *) text, len);
  if (safe_len == 0)
    {
      g_ptr_array_add (warnings,
                       g_strdup_printf ("%s: TRACING_DATA at offset %" G_GUINT64_FORMAT ": an event format "
                                        "of system %s is damaged; its events keep their name only",
                                        c->file, text_offset, system));
      return;
    }
  enum tep_errno err = tep_parse_format (self->tep, &event, (const char *) text, safe_len, system);
  /* Without its print fmt the event is marked failed, its fields parsed all the same. */
  if (event != NULL && err != 0 && event->format.nr_fields > 0 && event->name != NULL && event->system != NULL)
    err = 0;
  if (err != 0 || event == NULL)
    {
      char msg[128] = "";
      tep_strerror (self->tep, err, msg, sizeof msg);
      g_ptr_array_add (warnings,
                       g_strdup_printf ("%s: TRACING_DATA at offset %" G_GUINT64_FORMAT ": an event "
                                        "format of system %s could not be parsed (%s); its events "
                                        "keep their name only", c->file, text_offset, system, msg));
      /* libtraceevent may keep a half-parsed event under its id; its fields are not used. */
      return;
    }
  if (g_hash_table_contains (self->decoders, GINT_TO_POINTER (event->id)))
    return;
  PerfTpDecoder *d = g_new0 (PerfTpDecoder, 1);
  d->id = event->id;
  d->name = g_strdup_printf ("%s:%s", event->system, event->name);
  setup_decoder (d, event, (const char *) text + safe_len, len - safe_len);
  g_hash_table_insert (self->decoders, GINT_TO_POINTER (event->id), d);
}

PerfTracing *
perf_tracing_parse (const guint8 *data, gsize size, const char *file, guint64 file_offset,
                    GPtrArray *warnings, GError **error)
{
  static const char magic[10] = "\x17\x08\x44tracing";
  Cursor c = { data, size, 0, file, file_offset };

  if (!need (&c, sizeof magic, "the magic", error))
    return NULL;
  if (memcmp (data, magic, sizeof magic) != 0)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                   "%s: TRACING_DATA at offset %" G_GUINT64_FORMAT ": bad magic", file, file_offset);
      return NULL;
    }
  c.pos += sizeof magic;
  const char *version = read_cstr (&c, "the version", error);
  if (version == NULL || !need (&c, 6, "the byte order, long and page sizes", error))
    return NULL;
  guint8 big_endian = data[c.pos];
  guint8 long_size = data[c.pos + 1];
  guint32 page_size;
  memcpy (&page_size, data + c.pos + 2, 4);
  c.pos += 6;
  if (big_endian != 0 || (long_size != 4 && long_size != 8))
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_UNSUPPORTED,
                   "%s: TRACING_DATA at offset %" G_GUINT64_FORMAT ": big-endian %u, long size %u: "
                   "only little-endian with 4- or 8-byte longs is supported",
                   file, file_offset, big_endian, long_size);
      return NULL;
    }

  g_autoptr(PerfTracing) self = g_new0 (PerfTracing, 1);
  self->tep = tep_alloc ();
  self->decoders = g_hash_table_new_full (NULL, NULL, NULL, decoder_free);
  tep_set_long_size (self->tep, long_size);
  tep_set_page_size (self->tep, (int) MIN (page_size, (guint32) G_MAXINT));
  tep_set_file_bigendian (self->tep, TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (self->tep, TEP_LITTLE_ENDIAN);

  static const char *const headers[2] = { "header_page", "header_event" };
  for (guint i = 0; i < 2; i++)
    {
      const char *name = read_cstr (&c, headers[i], error);
      if (name == NULL)
        return NULL;
      if (strcmp (name, headers[i]) != 0)
        {
          g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                       "%s: TRACING_DATA at offset %" G_GUINT64_FORMAT ": expected \"%s\"",
                       file, file_offset + (guint64) ((const guint8 *) name - data), headers[i]);
          return NULL;
        }
      gsize len;
      if (read_blob (&c, &len, headers[i], error) == NULL)
        return NULL;
    }

  guint32 n_ftrace;
  if (!read_u32 (&c, &n_ftrace, "the ftrace format count", error))
    return NULL;
  for (guint32 i = 0; i < n_ftrace; i++)
    {
      gsize len;
      guint64 at = c.base + c.pos + 8;
      const guint8 *text = read_blob (&c, &len, "an ftrace format", error);
      if (text == NULL)
        return NULL;
      add_event (self, text, len, "ftrace", &c, at, warnings);
    }

  guint32 n_systems;
  if (!read_u32 (&c, &n_systems, "the system count", error))
    return NULL;
  for (guint32 s = 0; s < n_systems; s++)
    {
      const char *system = read_cstr (&c, "a system name", error);
      guint32 n_events;
      if (system == NULL || !read_u32 (&c, &n_events, "an event count", error))
        return NULL;
      for (guint32 i = 0; i < n_events; i++)
        {
          gsize len;
          guint64 at = c.base + c.pos + 8;
          const guint8 *text = read_blob (&c, &len, "an event format", error);
          if (text == NULL)
            return NULL;
          add_event (self, text, len, system, &c, at, warnings);
        }
    }
  /* kallsyms, printk formats and saved cmdlines follow; nothing here needs them. */
  return g_steal_pointer (&self);
}

const PerfTpDecoder *
perf_tracing_lookup (PerfTracing *self, guint64 id)
{
  if (self == NULL || id > G_MAXINT)
    return NULL;
  return g_hash_table_lookup (self->decoders, GINT_TO_POINTER ((gint) id));
}

gint64
perf_field_read_int (const PerfField *field, const guint8 *raw, gsize raw_size, gint64 fallback)
{
  if (!(field->flags & PERF_FIELD_PRESENT) || field->offset > raw_size
      || field->size > raw_size - field->offset)
    return fallback;
  const guint8 *p = raw + field->offset;
  gboolean sign = (field->flags & PERF_FIELD_SIGNED) != 0;
  switch (field->size)
    {
    case 1: { guint8 v = p[0]; return sign ? (gint64) (gint8) v : (gint64) v; }
    case 2: { guint16 v; memcpy (&v, p, 2); return sign ? (gint64) (gint16) v : (gint64) v; }
    case 4: { guint32 v; memcpy (&v, p, 4); return sign ? (gint64) (gint32) v : (gint64) v; }
    case 8: { guint64 v; memcpy (&v, p, 8); return (gint64) v; }
    default: return fallback;
    }
}

const char *
perf_field_peek_str (const PerfField *field, const guint8 *raw, gsize raw_size, gsize *len)
{
  if (!(field->flags & PERF_FIELD_PRESENT) || field->offset > raw_size
      || field->size > raw_size - field->offset)
    return NULL;
  if (field->flags & PERF_FIELD_DYNAMIC)
    {
      if (field->size < 4)
        return NULL;
      guint32 loc;
      memcpy (&loc, raw + field->offset, 4);
      gsize off = loc & 0xffff;
      gsize n = loc >> 16;
      if (field->flags & PERF_FIELD_RELATIVE)
        off += (gsize) field->offset + field->size;
      if (off > raw_size || n > raw_size - off)
        return NULL;
      const char *s = (const char *) raw + off;
      const char *nul = memchr (s, '\0', n);
      *len = nul != NULL ? (gsize) (nul - s) : n;
      return s;
    }
  const char *s = (const char *) raw + field->offset;
  const char *nul = memchr (s, '\0', field->size);
  *len = nul != NULL ? (gsize) (nul - s) : field->size;
  return s;
}

gssize
perf_field_read_str (const PerfField *field, const guint8 *raw, gsize raw_size,
                     char *out, gsize out_size)
{
  gsize len = 0;
  const char *s = perf_field_peek_str (field, raw, raw_size, &len);
  if (s == NULL)
    {
      out[0] = '\0';
      return -1;
    }
  gsize n = MIN (len, out_size - 1);
  memcpy (out, s, n);
  out[n] = '\0';
  return (gssize) len;
}
