/* perf-header.c: the attribute section and the feature sections of a perf.data file. */
#include "perf-private.h"

#include <string.h>

void
perf_reader_warn (JvmsPerfReader *self, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (self->warnings, g_strdup_printf ("%s: %s", self->path, msg));
}

/* [offset, offset + size) lies inside the file. */
static gboolean
in_file (JvmsPerfReader *self, guint64 offset, guint64 size)
{
  return offset <= self->size && size <= self->size - offset;
}

static guint
popcount64 (guint64 v)
{
  return (guint) __builtin_popcountll (v);
}

/* The u64 index of the id in a sample, or -1: perf's id_pos. */
static gint
sample_id_position (guint64 type)
{
  if (type & PERF_SAMPLE_IDENTIFIER)
    return 0;
  if (!(type & PERF_SAMPLE_ID))
    return -1;
  gint pos = 0;
  pos += (type & PERF_SAMPLE_IP) ? 1 : 0;
  pos += (type & PERF_SAMPLE_TID) ? 1 : 0;
  pos += (type & PERF_SAMPLE_TIME) ? 1 : 0;
  pos += (type & PERF_SAMPLE_ADDR) ? 1 : 0;
  return pos;
}

/* The u64 index, counted from the end (1 = last), of the id in a sample_id trailer: perf's
 * is_pos. */
static gint
trailer_id_position (guint64 type)
{
  if (type & PERF_SAMPLE_IDENTIFIER)
    return 1;
  if (!(type & PERF_SAMPLE_ID))
    return -1;
  gint pos = 1;
  pos += (type & PERF_SAMPLE_CPU) ? 1 : 0;
  pos += (type & PERF_SAMPLE_STREAM_ID) ? 1 : 0;
  return pos;
}

/* Ids read from all the attrs' sections, repeats included: 2^20, and no more than one per 8
 * bytes of the file (attrs of a real file have sections of their own, which the file holds;
 * overlapping sections would read the same bytes again and again). */
#define PERF_MAX_IDS ((guint64) 1 << 20)

static guint
section_hash (gconstpointer key)
{
  const PerfFileSection *s = key;
  return g_int64_hash (&s->offset) ^ g_int64_hash (&s->size);
}

static gboolean
section_equal (gconstpointer a, gconstpointer b)
{
  const PerfFileSection *x = a, *y = b;
  return x->offset == y->offset && x->size == y->size;
}

gboolean
perf_header_read_attrs (JvmsPerfReader *self, GError **error)
{
  const PerfFileHeader *h = &self->header;
  /* The entry is the attr plus a 16-byte ids section: attr_size is not sizeof perf_event_attr. */
  if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof (PerfFileSection) || h->attr_size > 4096)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                   "%s: header at offset 16: attr_size %" G_GUINT64_FORMAT " is outside [%u, 4096]",
                   self->path, h->attr_size, (guint) (PERF_ATTR_SIZE_VER0 + sizeof (PerfFileSection)));
      return FALSE;
    }
  if (!in_file (self, h->attrs.offset, h->attrs.size))
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_TRUNCATED,
                   "%s: header at offset 24: attribute section declares [%" G_GUINT64_FORMAT
                   ", +%" G_GUINT64_FORMAT ") but the file is %" G_GSIZE_FORMAT " bytes",
                   self->path, h->attrs.offset, h->attrs.size, self->size);
      return FALSE;
    }
  if (!perf_reader_load (self, h->attrs.offset, h->attrs.size, error))
    return FALSE;
  if (h->attrs.size % h->attr_size != 0)
    perf_reader_warn (self, "attribute section at offset %" G_GUINT64_FORMAT ": size %" G_GUINT64_FORMAT
                      " is not a multiple of attr_size %" G_GUINT64_FORMAT "; the tail is ignored",
                      h->attrs.offset, h->attrs.size, h->attr_size);
  guint64 n = h->attrs.size / h->attr_size;
  if (n == 0)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                   "%s: attribute section at offset %" G_GUINT64_FORMAT " holds no attribute",
                   self->path, h->attrs.offset);
      return FALSE;
    }

  self->n_attrs = (guint) n; /* n <= file size / 80 */
  self->attrs = g_new0 (PerfAttr, self->n_attrs);
  gsize attr_bytes = (gsize) h->attr_size - sizeof (PerfFileSection);
  /* Ids read so far, repeats included: attrs may all point at one big section, and each
   * would read and hash it again (20,000 attrs sharing 1 MiB of ids: 20 GiB). A section seen
   * before holds ids that already belong to the attr that listed them first: skipped. */
  guint64 ids_read = 0;
  guint64 max_ids = MIN (PERF_MAX_IDS, (guint64) self->size / 8);
  guint n_over = 0, first_over = 0;
  g_autoptr(GHashTable) sections = g_hash_table_new_full (section_hash, section_equal, g_free, NULL);
  for (guint i = 0; i < self->n_attrs; i++)
    {
      PerfAttr *a = &self->attrs[i];
      guint64 at = h->attrs.offset + i * h->attr_size;
      const guint8 *p = self->data + at;
      memcpy (&a->attr, p, MIN (attr_bytes, sizeof a->attr));
      if (attr_bytes < sizeof a->attr)
        memset ((guint8 *) &a->attr + attr_bytes, 0, sizeof a->attr - attr_bytes);
      a->usable = TRUE;
      if (a->attr.size != 0 && a->attr.size > attr_bytes)
        {
          perf_reader_warn (self, "attr #%u at offset %" G_GUINT64_FORMAT " declares size %u, more than "
                            "the %" G_GSIZE_FORMAT " bytes of its entry; its samples are skipped",
                            i, at, a->attr.size, attr_bytes);
          a->usable = FALSE;
        }

      PerfFileSection ids;
      memcpy (&ids, p + attr_bytes, sizeof ids);
      if (!in_file (self, ids.offset, ids.size) || ids.size % 8 != 0)
        {
          perf_reader_warn (self, "attr #%u at offset %" G_GUINT64_FORMAT ": ids section [%" G_GUINT64_FORMAT
                            ", +%" G_GUINT64_FORMAT ") is outside the file or misaligned; the attr has no ids",
                            i, at, ids.offset, ids.size);
          ids.size = 0;
        }
      gboolean seen = FALSE;
      if (ids.size > 0)
        {
          if (g_hash_table_contains (sections, &ids))
            seen = TRUE;
          else
            g_hash_table_add (sections, g_memdup2 (&ids, sizeof ids));
        }
      /* One id per CPU or thread and attr: a million is far beyond any real recording. */
      if (!seen && ids.size / 8 > max_ids - ids_read)
        {
          if (n_over++ == 0)
            first_over = i;
          ids.size = 0;
        }
      g_autoptr(GError) load_error = NULL;
      if (!seen && ids.size > 0 && !perf_reader_load (self, ids.offset, ids.size, &load_error))
        {
          perf_reader_warn (self, "attr #%u: its ids cannot be read (%s); the attr has no ids", i,
                            load_error->message);
          ids.size = 0;
        }
      a->pub.n_ids = (guint) (ids.size / 8);
      if (!seen)
        ids_read += a->pub.n_ids;
      for (guint k = 0; !seen && k < a->pub.n_ids; k++)
        {
          PerfIdSlot *slot = g_new0 (PerfIdSlot, 1);
          memcpy (&slot->id, self->data + ids.offset + (guint64) k * 8, 8);
          slot->attr = a;
          if (g_hash_table_contains (self->id_to_slot, &slot->id))
            g_free (slot);
          else
            g_hash_table_insert (self->id_to_slot, &slot->id, slot);
        }

      a->pub.type = a->attr.type;
      a->pub.config = a->attr.config;
      a->pub.sample_type = a->attr.sample_type;
      a->pub.read_format = a->attr.read_format;
      a->pub.sample_period = a->attr.sample_period;
      a->pub.freq = a->attr.freq;
      a->pub.use_clockid = a->attr.use_clockid;
      a->pub.clockid = a->attr.clockid;
    }

  if (n_over > 0)
    perf_reader_warn (self, "attr #%u at offset %" G_GUINT64_FORMAT " and %u more: their ids would exceed "
                      "the limit of %" G_GUINT64_FORMAT " ids read in all (2^20, and one per 8 "
                      "bytes of the file); those attrs have no ids",
                      first_over, h->attrs.offset + first_over * h->attr_size, n_over - 1, max_ids);

  guint64 type0 = self->attrs[0].attr.sample_type;
  self->sample_id_pos = sample_id_position (type0);
  self->trailer_id_pos = self->attrs[0].attr.sample_id_all ? trailer_id_position (type0) : -1;
  for (guint i = 1; i < self->n_attrs; i++)
    {
      guint64 t = self->attrs[i].attr.sample_type;
      if (sample_id_position (t) != self->sample_id_pos
          || (self->attrs[i].attr.sample_id_all && trailer_id_position (t) != self->trailer_id_pos))
        {
          perf_reader_warn (self, "attr #%u has its sample id at another position than attr #0; "
                            "records are matched to attributes by attr #0's layout", i);
          break;
        }
    }
  if (self->attrs[0].attr.use_clockid)
    self->clockid = self->attrs[0].attr.clockid;
  return TRUE;
}

/* A perf_header_string: u32 length (padding included), then the bytes. */
static char *
read_header_string (JvmsPerfReader *self, const guint8 *p, guint64 size, guint64 at, const char *what)
{
  guint32 len;
  if (size < 4)
    goto bad;
  memcpy (&len, p, 4);
  if (len > size - 4 || len > 65536)
    goto bad;
  return g_utf8_make_valid ((const char *) p + 4, (gssize) strnlen ((const char *) p + 4, len));

bad:
  perf_reader_warn (self, "%s feature at offset %" G_GUINT64_FORMAT ": string does not fit its "
                    "%" G_GUINT64_FORMAT "-byte section; ignored", what, at, size);
  return NULL;
}

static void
read_event_desc (JvmsPerfReader *self, const guint8 *p, guint64 size, guint64 at)
{
  guint32 nr, attr_size;
  if (size < 8)
    goto bad;
  memcpy (&nr, p, 4);
  memcpy (&attr_size, p + 4, 4);
  /* Each entry is at least the attr, a u32 id count and a u32 string length. */
  if (attr_size < PERF_ATTR_SIZE_VER0 || (guint64) nr * ((guint64) attr_size + 8) > size - 8)
    goto bad;
  guint64 pos = 8;
  for (guint32 i = 0; i < nr; i++)
    {
      if (size - pos < (guint64) attr_size + 4)
        goto bad;
      pos += attr_size;
      guint32 nr_ids;
      memcpy (&nr_ids, p + pos, 4);
      pos += 4;
      char *name = read_header_string (self, p + pos, size - pos, at + pos, "EVENT_DESC");
      if (name == NULL)
        return;
      guint32 len;
      memcpy (&len, p + pos, 4);
      pos += 4 + (guint64) len;
      if ((guint64) nr_ids * 8 > size - pos)
        {
          g_free (name);
          goto bad;
        }
      pos += (guint64) nr_ids * 8;
      if (i < self->n_attrs && self->attrs[i].name == NULL && name[0] != '\0')
        self->attrs[i].name = name;
      else
        g_free (name);
    }
  return;

bad:
  perf_reader_warn (self, "EVENT_DESC feature at offset %" G_GUINT64_FORMAT ": entries do not fit "
                    "its %" G_GUINT64_FORMAT "-byte section; event names derived from attributes",
                    at, size);
}

static void
read_feature (JvmsPerfReader *self, guint bit, const guint8 *p, guint64 size, guint64 at)
{
  switch (bit)
    {
    case PERF_FEAT_TRACING_DATA:
      {
        g_autoptr(GError) local_error = NULL;
        self->tracing = perf_tracing_parse (p, size, self->path, at, self->warnings, &local_error);
        if (self->tracing == NULL)
          g_ptr_array_add (self->warnings, g_strdup_printf ("%s; tracepoint fields are unavailable",
                                                            local_error->message));
        break;
      }
    case PERF_FEAT_HOSTNAME:
      self->hostname = read_header_string (self, p, size, at, "HOSTNAME");
      break;
    case PERF_FEAT_OSRELEASE:
      self->os_release = read_header_string (self, p, size, at, "OSRELEASE");
      break;
    case PERF_FEAT_VERSION:
      self->perf_version = read_header_string (self, p, size, at, "VERSION");
      break;
    case PERF_FEAT_NRCPUS:
      if (size >= 8)
        {
          guint32 online;
          memcpy (&online, p + 4, 4);
          if (online > 0 && online <= 65536)
            self->n_cpus = (gint) online;
        }
      break;
    case PERF_FEAT_EVENT_DESC:
      read_event_desc (self, p, size, at);
      break;
    case PERF_FEAT_CLOCK_DATA:
      if (size >= sizeof (PerfClockDataFeature))
        {
          PerfClockDataFeature cd;
          memcpy (&cd, p, sizeof cd);
          self->clock.present = TRUE;
          self->clock.version = cd.version;
          self->clock.clockid = (gint32) cd.clockid;
          self->clock.tod_ns = cd.wall_clock_ns;
          self->clock.clockid_ns = cd.clockid_time_ns;
          self->clockid = (gint) cd.clockid;
        }
      else
        perf_reader_warn (self, "CLOCK_DATA feature at offset %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT
                          " bytes, expected %u; ignored", at, size, (guint) sizeof (PerfClockDataFeature));
      break;
    case PERF_FEAT_COMPRESSED:
      if (size >= sizeof (PerfCompressedFeature))
        {
          PerfCompressedFeature cf;
          memcpy (&cf, p, sizeof cf);
          self->comp_mmap_len = cf.mmap_len;
        }
      break;
    default:
      break;
    }
}

void
perf_header_read_features (JvmsPerfReader *self)
{
  const PerfFileHeader *h = &self->header;
  guint n = 0;
  for (guint i = 0; i < 4; i++)
    n += popcount64 (h->features[i]);
  if (n == 0)
    return;
  guint64 table = h->data.offset + h->data.size;
  if (!in_file (self, table, (guint64) n * sizeof (PerfFileSection)))
    {
      perf_reader_warn (self, "feature table at offset %" G_GUINT64_FORMAT " (%u sections) lies past the "
                        "end of the file (%" G_GSIZE_FORMAT " bytes); features ignored",
                        table, n, self->size);
      return;
    }
  g_autoptr(GError) load_error = NULL;
  if (!perf_reader_load (self, table, (guint64) n * sizeof (PerfFileSection), &load_error))
    {
      perf_reader_warn (self, "feature table cannot be read (%s); features ignored", load_error->message);
      return;
    }
  guint k = 0;
  for (guint bit = 0; bit < PERF_FEAT_BITS; bit++)
    {
      if (!(h->features[bit / 64] & (G_GUINT64_CONSTANT (1) << (bit % 64))))
        continue;
      PerfFileSection sec;
      memcpy (&sec, self->data + table + (guint64) k * sizeof sec, sizeof sec);
      k++;
      if (!in_file (self, sec.offset, sec.size))
        {
          perf_reader_warn (self, "feature %u: section [%" G_GUINT64_FORMAT ", +%" G_GUINT64_FORMAT
                            ") lies outside the file; ignored", bit, sec.offset, sec.size);
          continue;
        }
      if (!perf_reader_load (self, sec.offset, sec.size, &load_error))
        {
          perf_reader_warn (self, "feature %u cannot be read (%s); ignored", bit, load_error->message);
          g_clear_error (&load_error);
          continue;
        }
      read_feature (self, bit, self->data + sec.offset, sec.size, sec.offset);
    }
}

static const char *
hardware_name (guint64 config)
{
  static const char *const names[] = {
    "cycles", "instructions", "cache-references", "cache-misses", "branch-instructions",
    "branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
  };
  return config < G_N_ELEMENTS (names) ? names[config] : NULL;
}

static const char *
software_name (guint64 config)
{
  static const char *const names[] = {
    "cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations", "minor-faults",
    "major-faults", "alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches",
  };
  return config < G_N_ELEMENTS (names) ? names[config] : NULL;
}

/* Names attributes that EVENT_DESC did not name, and picks every counter's plain name. */
void
perf_header_name_attrs (JvmsPerfReader *self)
{
  for (guint i = 0; i < self->n_attrs; i++)
    {
      PerfAttr *a = &self->attrs[i];
      const char *plain = NULL;
      if (a->attr.type == PERF_TYPE_HARDWARE)
        plain = hardware_name (a->attr.config);
      else if (a->attr.type == PERF_TYPE_SOFTWARE)
        plain = software_name (a->attr.config);
      else if (a->attr.type == PERF_TYPE_TRACEPOINT)
        a->tp = perf_tracing_lookup (self->tracing, a->attr.config);

      if (a->name == NULL)
        {
          if (a->tp != NULL)
            a->name = g_strdup (a->tp->name);
          else if (plain != NULL)
            a->name = g_strdup (plain);
          else if (a->attr.type == PERF_TYPE_TRACEPOINT)
            a->name = g_strdup_printf ("tracepoint:%" G_GUINT64_FORMAT, (guint64) a->attr.config);
          else
            a->name = g_strdup_printf ("type%u:0x%" G_GINT64_MODIFIER "x", a->attr.type,
                                       (guint64) a->attr.config);
        }
      a->pub.name = a->name;
      if (plain != NULL)
        a->counter = plain;
      else
        {
          a->counter_owned = g_strndup (a->name, strcspn (a->name, "/:"));
          a->counter = a->counter_owned;
        }
    }
}
