/* jfr-chunk.h: a chunk loaded for reading: its constant pools and its event index. */
#pragma once

#include "jfr-arena.h"
#include "jfr-private.h"
#include "jfr-input.h"
#include "jfr-string.h"

/* One constant: where its value starts in the file, and what the reader made of it. */
typedef struct
{
  guint64  key;
  guint64  offset;   /* of the value from the chunk's first byte; 0 marks an empty slot */
  gpointer cache;    /* decoded form (string, thread, stack trace, class name…), or NULL */
} JfrPoolEntry;

/* Filled as an open-addressing hash while the checkpoints are read; once the chunk is
 * loaded, a pool whose keys are dense (after dividing out the power of two they all share,
 * as HotSpot's class ids do) becomes an array indexed by key, so that the lookup done for
 * nearly every field of every event is a subtraction and a shift. */
typedef struct
{
  const JvmsJfrType *type;
  JfrPoolEntry      *slots;
  guint64            mask;   /* capacity - 1, capacity a power of two */
  guint64            n;
  JfrPoolEntry      *dense;  /* when not NULL: slots is NULL, entry k at (k - base) >> shift */
  guint64            base;
  guint64            n_dense;
  guint              shift;
} JfrPool;

typedef struct
{
  gint64  ticks;    /* start time */
  guint64 offset;   /* chunk-relative offset of the record */
} JfrIndexEntry;

/* Big buffers a reader hands from one chunk to the next (chunk copies and event indexes, a
 * few MB each): reusing them spares the page faults of fresh memory for every chunk. At most
 * two chunks are merged at once, each with its copy and its index. */
#define JFR_SCRATCH_SPARES 4
typedef struct
{
  gpointer       spare[JFR_SCRATCH_SPARES];
  gsize          spare_cap[JFR_SCRATCH_SPARES];  /* bytes */
  JfrIndexEntry *tmp;
  gsize          tmp_cap;                        /* bytes */
} JfrScratch;

void jfr_scratch_clear (JfrScratch *scratch);

typedef struct
{
  JvmsJfrFile      *file;
  JfrChunk         *chunk;
  guint64           load;     /* this loading's id (jvms_jfr_event_get_load) */
  const JfrMetadata *md;
  const guint8     *base;     /* first byte of the chunk header: in the file's bytes in
                               * memory, or in @copy; constants are found by their offset
                               * from here */
  const guint8     *end;      /* end of the bytes read for this chunk */
  guint8           *copy;     /* the chunk read into memory of our own, or NULL */
  gsize             copy_cap;
  gboolean          copy_mapped; /* @copy is an anonymous mapping holding only checkpoints */
  gboolean          compressed;
  JfrPool         **pools;    /* by type ordinal; NULL when the chunk has no such pool */
  JfrIndexEntry    *index;
  guint64           n_events;
  guint64           index_cap;  /* entries */
  guint64           cursor;
  JfrScratch       *scratch_pool; /* the reader's, may be NULL */
  guint64           unresolved;   /* references to keys the chunk does not define */
  /* the last reference resolved: events of a thread come in runs, and a field is often
   * resolved twice (its value, then its decoded form) */
  const JvmsJfrType *memo_type;
  guint64           memo_key;
  JfrPoolEntry     *memo_entry;
  guint64           unknown_types;
  guint64           first_unknown_type;
  JfrArena         *arena;    /* cached decoded constants, freed with the chunk */
  const char       *frame_types[8]; /* the frames' type names, one copy each in @arena */
  GString          *scratch;
  JfrArena         *event_arena; /* the reader's: strings of the current event */
  gboolean          warn;       /* this load reports damage (the first load of the chunk) */
} JfrLoaded;

typedef enum
{
  JFR_LOAD_FILE_ORDER,  /* every event, in file order */
  JFR_LOAD_TIME_ALL,    /* every event, sorted by start time */
  JFR_LOAD_TIME_BODY,   /* events that start at or after the chunk start, sorted */
  JFR_LOAD_POOLS_ONLY,  /* constants only, no index */
} JfrLoadMode;

/* Walks the records of chunk @c once: registers every constant and indexes the events that
 * @mode asks for. Damage becomes warnings on the file (only once per chunk: modes that load
 * a chunk a second time stay quiet). */
JfrLoaded *jfr_loaded_new  (JvmsJfrFile *file,
                            JfrChunk    *c,
                            JfrLoadMode  mode,
                            JfrScratch  *scratch);

/* An event that started before its chunk (a duration event that spans a rotation, or
 * jdk.ActiveRecording, which every chunk repeats with the recording's start time). */
typedef struct
{
  guint   chunk;
  guint64 offset;   /* chunk-relative */
  guint64 size;     /* of the record */
  gint64  ticks;
  gint64  ns;
} JfrOutlier;

/* A framing pass over chunk @c that decodes only start times: the earliest start among the
 * events that start at or after the chunk start (G_MAXINT64 when none), and the others
 * appended to @outliers. */
gint64     jfr_chunk_prescan (JvmsJfrFile *file,
                              JfrChunk    *c,
                              GArray      *outliers,
                              JfrScratch  *scratch);
void       jfr_loaded_free (JfrLoaded   *loaded);
/* Makes the record [@offset, @offset + @size) of the chunk readable in @loaded (a load that holds
 * only checkpoints reads it now); FALSE when it lies beyond what the file still holds. */
gboolean   jfr_loaded_fetch (JfrLoaded  *loaded,
                             guint64     offset,
                             guint64     size);


const JfrPoolEntry *jfr_pool_lookup (const JfrLoaded  *loaded,
                                     const JvmsJfrType *type,
                                     guint64            key);

/* Skips one value as field (@type, @array, @cp) would hold it. */
gboolean   jfr_skip_value  (JfrIn             *in,
                            const JvmsJfrType *type,
                            gboolean           array,
                            gboolean           cp);
gboolean   jfr_skip_fields (JfrIn             *in,
                            const JvmsJfrType *type,
                            guint              n_fields);

/* Skips one value laid out as @op says (not JFR_OP_ARRAY) of @type; @width is the bytes of
 * an uncompressed short/char/int/long or pool key. */
static inline gboolean
jfr_skip_as (JfrIn *in, guint op, guint width, const JvmsJfrType *type)
{
  switch (op)
    {
    case JFR_OP_BOOLEAN:
    case JFR_OP_BYTE:
      return jfr_in_skip (in, 1);
    case JFR_OP_SHORT:
    case JFR_OP_CHAR:
    case JFR_OP_INT:
    case JFR_OP_LONG:
    case JFR_OP_POOL:
      if (G_LIKELY (in->compressed))
        {
          jfr_in_skip_varint (in);
          return !in->bad;
        }
      return jfr_in_skip (in, width);
    case JFR_OP_FLOAT:
      return jfr_in_skip (in, 4);
    case JFR_OP_DOUBLE:
      return jfr_in_skip (in, 8);
    case JFR_OP_STRING:
      return jfr_string_skip (in);
    case JFR_OP_OBJECT:
    default:
      return jfr_skip_fields (in, type, type->n_fields);
    }
}

/* Skips the value of field @f. */
static inline gboolean
jfr_skip_field (JfrIn *in, const JvmsJfrField *f)
{
  if (f->op == JFR_OP_ARRAY)
    return jfr_skip_value (in, f->type, TRUE, f->constant_pool);
  return jfr_skip_as (in, f->op, f->width, f->type);
}


/* jfr-reader.c / jfr-value.c */
struct _JvmsJfrEvent
{
  JvmsJfrReader     *reader;
  JfrLoaded         *loaded;
  const JvmsJfrType *type;
  const guint8      *payload;      /* first field */
  const guint8      *end;          /* end of the record */
  guint64            file_offset;
  gint64             start_ticks;
  gint64             start_ns;
  gint               offsets_state; /* 0 not computed, 1 computed */
  guint32           *offsets;      /* per field, relative to payload; G_MAXUINT32 = damaged */
  gboolean           duration_known; /* @duration_ns read (the indexer asks for it twice) */
  gint64             duration_ns;
};

gboolean jfr_event_compute_offsets (JvmsJfrEvent *event);
