/* jfr-writer.h: a tiny JFR writer for tests and fuzz seeds: primitives, records with padded
 * sizes (as HotSpot patches them), metadata element trees, and chunk headers. Builds files byte
 * by byte so that a test can give a well-formed file one extreme property. Layouts as in
 * ../shared/docs/jfr-format.md. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GByteArray *b;
} JfrW;

void jfrw_u8     (JfrW *w, guint8 v);
void jfrw_varint (JfrW *w, guint64 v);
void jfrw_be     (JfrW *w, guint64 v, guint n);
void jfrw_bytes  (JfrW *w, const void *data, gsize len);
/* A string with encoding 3 (UTF-8): encoding byte, varint length, bytes. */
void jfrw_utf8   (JfrW *w, const char *s);
/* A record: size padded to 4 bytes, then @type, then @payload. Returns the record's offset. */
gsize jfrw_record (JfrW *w, guint64 type, const GByteArray *payload);

/* Metadata: strings interned into a table; elements refer to them by index. */
typedef struct
{
  GPtrArray  *strings;
  GHashTable *index;    /* string -> position + 1 */
  JfrW        tree;
  guint64     string_count;   /* 0: the real count; else written in its place (hostile) */
} JfrMd;

void  jfrw_md_init  (JfrMd *md);
guint jfrw_md_str   (JfrMd *md, const char *s);
/* An element: name, @n_attrs key/value pairs (const char *), then the child count; children
 * follow with further calls. */
void  jfrw_md_elem  (JfrMd *md, const char *name, guint n_children, guint n_attrs, ...);
/* A class with only a name and an id (a primitive, or a class without fields). */
void  jfrw_md_class (JfrMd *md, const char *name, guint64 id, guint n_children);
/* A field without annotations: @cp adds constantPool="true", @array dimension="1". */
void  jfrw_md_field (JfrMd *md, const char *name, guint64 class_id, gboolean cp, gboolean array);
/* The payload of the metadata record (after its type): times, id, string table, tree. Frees
 * the builder. */
GByteArray *jfrw_md_finish (JfrMd *md, guint64 metadata_id);

/* Chunks: begin reserves the 68-byte header, end writes it. */
typedef struct
{
  gsize   start;          /* offset of the header in the file */
  gsize   cp_offset;      /* chunk-relative; set by jfrw_chunk_record for type 1 */
  gsize   md_offset;      /* chunk-relative; set for type 0 */
  gint64  start_nanos;
  gint64  start_ticks;
  gint64  ticks_per_second;
  guint8  state;          /* 0 = complete */
} JfrChunkW;

void  jfrw_chunk_begin  (JfrW *w, JfrChunkW *c);
/* A record of the chunk; a checkpoint (1) or metadata (0) record is noted for the header. */
gsize jfrw_chunk_record (JfrW *w, JfrChunkW *c, guint64 type, const GByteArray *payload);
/* Writes the header; adds an empty checkpoint when the chunk has none (the JDK needs one). */
void  jfrw_chunk_end    (JfrW *w, JfrChunkW *c);

/* A checkpoint payload builder: begin writes the checkpoint head with @n_pools; then each pool
 * is its type id and count followed by (key, value) written by the caller. */
void jfrw_checkpoint_begin (JfrW *w, gint64 start_ticks, guint64 n_pools);

/* The classes every synthetic file needs: primitives with ids 1-9 (boolean, byte, short, char,
 * int, long, float, double, java.lang.String), and the annotations jdk.jfr.Timestamp (10) and
 * jdk.jfr.Timespan (11). Counts as 11 children of the metadata element. */
#define JFRW_BOOLEAN 1
#define JFRW_BYTE    2
#define JFRW_SHORT   3
#define JFRW_CHAR    4
#define JFRW_INT     5
#define JFRW_LONG    6
#define JFRW_FLOAT   7
#define JFRW_DOUBLE  8
#define JFRW_STRING  9
#define JFRW_TIMESTAMP 10
#define JFRW_TIMESPAN  11
#define JFRW_N_BASIC_CLASSES 11
void jfrw_md_basic_classes (JfrMd *md);
/* The region element that follows the metadata element (UTC). */
void jfrw_md_region        (JfrMd *md);
/* A startTime field annotated @Timestamp(TICKS). */
void jfrw_md_start_time    (JfrMd *md);

G_END_DECLS
