/* jfr-private.h: the structures behind jvms-jfr.h, shared by the files of readers/jfr. */
#pragma once

#include "jvms-jfr.h"

/* Per-chunk limits that keep hostile input from costing more than the file is worth. */
#define JFR_HEADER_SIZE        68
#define JFR_MAX_NESTING        32   /* inline struct depth, and resolve depth for printing */
#define JFR_MAX_FRAMES         8192 /* frames decoded per stack trace (HotSpot: at most 2048) */

struct _JvmsJfrAnnotation
{
  const JvmsJfrType *type;
  guint64            type_id;
  /* NULL-terminated key, value, key, value… (strings in the metadata's string chunk) */
  const char       **attributes;
};

/* How a field's value lies on the wire, decided once from its type and flags so that the
 * per-event loops switch on one small number instead of re-deriving it. The first ten equal
 * JvmsJfrKind (a plain value of that kind). */
typedef enum
{
  JFR_OP_BOOLEAN = JVMS_JFR_KIND_BOOLEAN,
  JFR_OP_BYTE    = JVMS_JFR_KIND_BYTE,
  JFR_OP_SHORT   = JVMS_JFR_KIND_SHORT,
  JFR_OP_CHAR    = JVMS_JFR_KIND_CHAR,
  JFR_OP_INT     = JVMS_JFR_KIND_INT,
  JFR_OP_LONG    = JVMS_JFR_KIND_LONG,
  JFR_OP_FLOAT   = JVMS_JFR_KIND_FLOAT,
  JFR_OP_DOUBLE  = JVMS_JFR_KIND_DOUBLE,
  JFR_OP_STRING  = JVMS_JFR_KIND_STRING,
  JFR_OP_OBJECT  = JVMS_JFR_KIND_OBJECT,  /* a compound value inline */
  JFR_OP_POOL,                            /* a constant-pool key (a long) */
  JFR_OP_ARRAY,                           /* count, then elements */
} JfrOp;

/* Bytes of an uncompressed short, char, int or long (integers of compressed chunks are
 * varints); 0 for the other kinds. */
static inline guint
jfr_kind_width (JvmsJfrKind kind)
{
  switch (kind)
    {
    case JVMS_JFR_KIND_SHORT:
    case JVMS_JFR_KIND_CHAR: return 2;
    case JVMS_JFR_KIND_INT:  return 4;
    case JVMS_JFR_KIND_LONG: return 8;
    default:                 return 0;
    }
}

struct _JvmsJfrField
{
  const char        *name;
  guint              index;
  guint64            type_id;
  const JvmsJfrType *type;
  gboolean           array;
  gboolean           constant_pool;
  JvmsJfrAnnotation *annotations;
  guint              n_annotations;
  const char        *label;
  const char        *description;
  JvmsJfrUnit        unit;
  gboolean           is_unsigned;
  guint8             op;     /* JfrOp */
  guint8             width;  /* bytes of an uncompressed short/char/int/long or pool key */
};

struct _JvmsJfrSetting
{
  const char        *name;
  guint64            type_id;
  const JvmsJfrType *type;
  const char        *default_value;
};

struct _JvmsJfrType
{
  guint64            id;
  guint              ordinal;      /* index in its metadata's type table */
  const char        *name;
  const char        *super_type;
  JvmsJfrKind        kind;
  gboolean           simple;
  gboolean           is_event;
  JvmsJfrField      *fields;
  guint              n_fields;
  JvmsJfrAnnotation *annotations;
  guint              n_annotations;
  JvmsJfrSetting    *settings;
  guint              n_settings;
  const char        *label;
  const char        *description;
  const char       **category;     /* NULL-terminated */
  /* Field indexes of the conventional event fields, -1 when absent. */
  gint               start_field, duration_field, thread_field, stack_field;
  /* Special types the reader resolves into C structs. */
  enum { JFR_SPECIAL_NONE, JFR_SPECIAL_THREAD, JFR_SPECIAL_STACK_TRACE, JFR_SPECIAL_CLASS,
         JFR_SPECIAL_METHOD, JFR_SPECIAL_THREAD_GROUP } special;
  /* For a simpleType or any type whose only field is a string: that field. */
  const JvmsJfrField *string_field;
  /* The fewest bytes a value of the type takes inline (saturated at G_MAXUINT64): every field
   * takes at least one (jfr-metadata.c refuses inline types that take none), so a record
   * shorter than its type's min_bytes is damaged, and no decode costs more steps than bytes
   * times the nesting height. */
  guint64            min_bytes;
};

typedef struct
{
  gint           ref_count;
  guint64        metadata_id;
  /* the record bytes after the metadata id, for deduplication: their SHA-256 and size */
  char          *payload_digest;
  gsize          payload_size;
  GStringChunk  *strings;
  JvmsJfrType  **types;       /* ordinal → type */
  guint          n_types;
  GHashTable    *by_id;       /* guint64 * → JvmsJfrType * */
  GHashTable    *by_name;     /* name → JvmsJfrType * */
  JvmsJfrType  **small_ids;   /* id → type for ids < n_small_ids */
  guint          n_small_ids;
  gint64         gmt_offset_ms;
  struct _JfrArena *arena;    /* the types and everything they point at */
} JfrMetadata;

/* A record of a chunk: chunk-relative offset and size. */
typedef struct
{
  guint64 pos;
  guint64 size;
} JfrRecordSpan;

typedef struct
{
  JvmsJfrChunkInfo info;
  guint            position;        /* among all chunk headers met, skipped ones included:
                                     * the number warnings and errors give */
  guint8           state;          /* header byte 64 */
  guint64          cp_offset;
  guint64          metadata_offset; /* chunk-relative offset of the metadata record in use */
  JfrMetadata     *metadata;
  gboolean         warned;          /* a load of this chunk has reported its damage */
  GArray          *checkpoints;     /* JfrRecordSpan: where its checkpoint records are,
                                     * found by a prescan; NULL until then */
} JfrChunk;

struct _JvmsJfrFile
{
  gint          ref_count;
  char         *path;
  int           fd;         /* a file on disk, read with pread (jfr-io.c); -1 for bytes */
  GBytes       *bytes;
  const guint8 *data;       /* the bytes of a file opened from memory; NULL for a file on disk */
  guint64       size;       /* at open */
  gboolean      read_failed; /* a read came back short (the file shrank) or failed: warned */
  GPtrArray    *chunks;     /* JfrChunk * */
  GPtrArray    *warnings;   /* JvmsJfrWarning * (message owned) */
  GPtrArray    *metadatas;  /* JfrMetadata *, deduplicated */
  GHashTable   *metadata_set; /* the same, to find one by id and contents */
};

/* jfr-io.c: reading the file. Every read is bounded by the size at open; a read that comes
 * back short (the file shrank, or an I/O error) is warned about once, and the caller treats
 * the file as ending where the bytes stopped. */

/* Reads [offset, offset + size) into @dest; returns how many bytes were read. */
guint64 jfr_file_read (JvmsJfrFile *file, guint8 *dest, guint64 offset, guint64 size);

/* The bytes [offset, offset + size) of the file, *got of them (fewer at the end of the file or
 * after a short read): in place for bytes in memory, else read into @view's buffer (valid
 * until the next use of @view). */
typedef struct
{
  guint8 *owned;
  gsize   cap;
} JfrView;
const guint8 *jfr_file_view (JvmsJfrFile *file, JfrView *view, guint64 offset, guint64 size,
                             guint64 *got);
void          jfr_view_clear (JfrView *view);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (JfrView, jfr_view_clear)

/* Sequential reads of small pieces (record heads, a scan for the next chunk) through a 1 MiB
 * window, so that walking a chunk costs a read per MiB instead of one per record. */
typedef struct
{
  JfrView       view;
  const guint8 *data;
  guint64       start, len;
} JfrWindow;
const guint8 *jfr_window_at    (JvmsJfrFile *file, JfrWindow *window, guint64 offset,
                                guint64 need, guint64 *avail);
void          jfr_window_clear (JfrWindow *window);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (JfrWindow, jfr_window_clear)

/* Decoding steps of the calling thread: compound values walked, values read, metadata
 * elements and strings parsed. Only counted, for jvms_jfr_work_steps(). */
extern __thread guint64 jfr_work;

void jfr_file_warn (JvmsJfrFile *file,
                    guint        chunk,
                    guint64      offset,
                    const char  *structure,
                    const char  *format,
                    ...) G_GNUC_PRINTF (5, 6);

/* jfr-metadata.c */
/* The metadata record [@record, @end), which starts at @record_offset in the file. */
JfrMetadata *jfr_metadata_parse (JvmsJfrFile *file,
                                 guint        chunk_index,
                                 const guint8 *record,
                                 const guint8 *end,
                                 guint64       record_offset,
                                 gboolean      compressed,
                                 GError      **error);
JfrMetadata *jfr_metadata_ref   (JfrMetadata *metadata);
void         jfr_metadata_unref (JfrMetadata *metadata);
const JvmsJfrType *jfr_metadata_lookup (const JfrMetadata *metadata,
                                        guint64            id);
