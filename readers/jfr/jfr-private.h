/* jfr-private.h: the structures behind jvms-jfr.h, shared by the files of readers/jfr. */
#pragma once

#include "jvms-jfr.h"

/* Per-chunk limits that keep hostile input from costing more than the file is worth. */
#define JFR_HEADER_SIZE        68
#define JFR_MAX_NESTING        32   /* inline struct depth, and resolve depth for printing */

struct _JvmsJfrAnnotation
{
  const JvmsJfrType *type;
  guint64            type_id;
  /* NULL-terminated key, value, key, value… (strings in the metadata's string chunk) */
  const char       **attributes;
};

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
};

typedef struct
{
  gint           ref_count;
  guint64        metadata_id;
  GBytes        *payload;     /* the record bytes after the metadata id, for deduplication */
  GStringChunk  *strings;
  JvmsJfrType  **types;       /* ordinal → type */
  guint          n_types;
  GHashTable    *by_id;       /* guint64 * → JvmsJfrType * */
  GHashTable    *by_name;     /* name → JvmsJfrType * */
  JvmsJfrType  **small_ids;   /* id → type for ids < n_small_ids */
  guint          n_small_ids;
  gint64         gmt_offset_ms;
  gpointer       arena;       /* fields, annotations, settings */
} JfrMetadata;

typedef struct
{
  JvmsJfrChunkInfo info;
  guint8           state;          /* header byte 64 */
  guint64          cp_offset;
  guint64          metadata_offset; /* chunk-relative offset of the metadata record in use */
  JfrMetadata     *metadata;
  gboolean         warned;          /* a load of this chunk has reported its damage */
  GArray          *checkpoints;     /* chunk-relative offsets of its checkpoint records,
                                     * found by a prescan; NULL until then */
} JfrChunk;

struct _JvmsJfrFile
{
  gint          ref_count;
  char         *path;
  GMappedFile  *mapped;
  GBytes       *bytes;
  const guint8 *data;
  guint64       size;
  GPtrArray    *chunks;     /* JfrChunk * */
  GPtrArray    *warnings;   /* JvmsJfrWarning * (message owned) */
  GPtrArray    *metadatas;  /* JfrMetadata *, deduplicated */
};

void jfr_file_warn (JvmsJfrFile *file,
                    guint        chunk,
                    guint64      offset,
                    const char  *structure,
                    const char  *format,
                    ...) G_GNUC_PRINTF (5, 6);

/* jfr-metadata.c */
JfrMetadata *jfr_metadata_parse (JvmsJfrFile *file,
                                 guint        chunk_index,
                                 const guint8 *record,
                                 const guint8 *end,
                                 gboolean      compressed,
                                 GError      **error);
JfrMetadata *jfr_metadata_ref   (JfrMetadata *metadata);
void         jfr_metadata_unref (JfrMetadata *metadata);
const JvmsJfrType *jfr_metadata_lookup (const JfrMetadata *metadata,
                                        guint64            id);
