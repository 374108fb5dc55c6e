/* jvms-jfr.h: a reader of Java Flight Recorder (.jfr) files, format 2.0 (JDK 11) and 2.1
 * (JDK 14+), as HotSpot, async-profiler and other JFR writers produce them.
 *
 * Model
 *   JvmsJfrFile     an opened file: its chunks, their metadata, warnings.
 *   JvmsJfrReader   a cursor over the events of a file, in time order across all chunks, each
 *                   event once, with memory bounded by about two chunks' worth of index.
 *   JvmsJfrEvent    the current event of a reader.
 *   JvmsJfrType     a class of the chunk metadata (event types, compound types, primitives).
 *   JvmsJfrField    a field of a type; look it up once per type, then read it per event.
 *   JvmsJfrObject   a compound value (an event, a constant-pool entry or a nested struct),
 *                   small, copied by value, read through field handles.
 *   JvmsJfrValue    one decoded field value (constant-pool references already resolved).
 *
 * Ownership and lifetime (read this before keeping any pointer)
 *   - JvmsJfrFile is reference counted; a reader holds a reference to its file.
 *   - JvmsJfrChunkInfo, JvmsJfrType, JvmsJfrField, JvmsJfrAnnotation, JvmsJfrSetting and every
 *     string they return belong to the file and stay valid until its last reference is
 *     dropped. Chunks with the same metadata share JvmsJfrType objects; chunks whose metadata
 *     differs have their own, so the same type name may map to several JvmsJfrType pointers:
 *     cache field handles per JvmsJfrType pointer (or compare names), never by type id alone.
 *   - JvmsJfrWarning entries belong to the file; the list only grows (damage found while
 *     reading events is appended as the reader reaches it).
 *   - Everything obtained from an event (the JvmsJfrEvent itself, JvmsJfrObject and
 *     JvmsJfrValue contents, strings, JvmsJfrThread, JvmsJfrStackTrace, JvmsJfrFrame) is owned
 *     by the reader and stays valid until the next call to jvms_jfr_reader_next() or
 *     jvms_jfr_reader_free() on that reader. Copy what you keep (g_strdup the names).
 *   - Strings are always valid UTF-8 (HotSpot's modified UTF-8, UTF-16 and Latin-1 payloads
 *     are converted; invalid bytes, unpaired surrogates and U+0000, which a C string cannot
 *     hold, become U+FFFD).
 *
 * Times
 *   Every event has a start time in ticks; a chunk converts its ticks to nanoseconds since the
 *   Unix epoch with its own (startNanos, startTicks, ticksPerSecond). Events are delivered in
 *   non-decreasing start time (epoch ns), ties in file order. Events that began before their
 *   chunk (a sleep spanning a rotation) are not clipped.
 *
 * Threads: none of this is thread-safe; use one reader per thread (several readers may share
 * one JvmsJfrFile only if they are used from the same thread).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_JFR_ERROR (jvms_jfr_error_quark ())
GQuark jvms_jfr_error_quark (void);

typedef enum
{
  JVMS_JFR_ERROR_IO,           /* the file could not be opened or read */
  JVMS_JFR_ERROR_EMPTY,        /* 0-byte file */
  JVMS_JFR_ERROR_NOT_JFR,      /* bad magic, or shorter than a chunk header */
  JVMS_JFR_ERROR_VERSION,      /* a major version other than 1 or 2 */
  JVMS_JFR_ERROR_TRUNCATED,    /* cut before anything decodable (e.g. before the metadata) */
  JVMS_JFR_ERROR_CORRUPT,      /* no chunk could be decoded */
} JvmsJfrError;

typedef struct _JvmsJfrFile       JvmsJfrFile;
typedef struct _JvmsJfrReader     JvmsJfrReader;
typedef struct _JvmsJfrEvent      JvmsJfrEvent;
typedef struct _JvmsJfrType       JvmsJfrType;
typedef struct _JvmsJfrField      JvmsJfrField;
typedef struct _JvmsJfrAnnotation JvmsJfrAnnotation;
typedef struct _JvmsJfrSetting    JvmsJfrSetting;

/* ---------------------------------------------------------------------------------------- */
/* Files and chunks                                                                          */

/* Opens @path and checks every chunk header. Fails (with @error in the JVMS_JFR_ERROR domain,
 * naming the file, chunk and offset) only when no chunk is usable; damage that leaves something
 * readable becomes a warning. The file is read, never mapped: one that shrinks while it is
 * open reads as cut where its bytes stop, with a warning "the file shrank while being read". */
JvmsJfrFile *jvms_jfr_file_open        (const char   *path,
                                        GError      **error);
/* Same on bytes in memory (a fuzzer, a test); @name is used in messages. Takes a reference
 * to @bytes. */
JvmsJfrFile *jvms_jfr_file_open_bytes  (GBytes       *bytes,
                                        const char   *name,
                                        GError      **error);
JvmsJfrFile *jvms_jfr_file_ref         (JvmsJfrFile  *file);
void         jvms_jfr_file_unref       (JvmsJfrFile  *file);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsJfrFile, jvms_jfr_file_unref)

const char  *jvms_jfr_file_get_path    (JvmsJfrFile  *file);
guint64      jvms_jfr_file_get_size    (JvmsJfrFile  *file);

typedef struct
{
  guint    index;            /* position among the usable chunks, from 0 */
  guint64  file_offset;      /* where the chunk header starts */
  guint64  size;             /* bytes of the chunk that are read (header size, or what the
                              * file holds when it was cut short) */
  guint16  major, minor;     /* format version: 2.0 (JDK 11) or 2.1 (JDK 14+) */
  gint64   start_nanos;      /* wall clock at chunk start, ns since 1970-01-01 UTC */
  gint64   duration_nanos;   /* as the header says (0 for a chunk still being written) */
  gint64   start_ticks;      /* tick counter at the same instant as start_nanos */
  gint64   ticks_per_second; /* > 0 (a chunk with 0 is rejected with a warning) */
  gboolean compressed_integers; /* header flag bit 0 */
  gboolean final_chunk;      /* header flag bit 1 (JDK 14+) */
  gboolean complete;         /* finished chunk, wholly present in the file */
  /* The time base that converts this chunk's ticks: its own (start_nanos, start_ticks), or
   * those of the first chunk of the run of consecutive chunks with the same metadata id, as
   * the JDK's reader does. Ticks share one origin within a JVM, so one base per run keeps the
   * timeline continuous across chunk rotations (and equal to what the JDK tools print). A
   * chunk whose start the run's base misplaces by more than 1 s (plus 1 ms a second) starts a
   * run of its own: another JVM's, in files concatenated from several recordings. */
  gint64   base_nanos;
  gint64   base_ticks;
} JvmsJfrChunkInfo;

guint                   jvms_jfr_file_get_n_chunks (JvmsJfrFile *file);
const JvmsJfrChunkInfo *jvms_jfr_file_get_chunk    (JvmsJfrFile *file,
                                                    guint        index);

/* The types that the metadata of chunk @chunk declares (events, compound types, primitives,
 * annotations), and one of them by name (NULL when absent). */
guint              jvms_jfr_file_get_n_types (JvmsJfrFile *file,
                                              guint        chunk);
const JvmsJfrType *jvms_jfr_file_get_type    (JvmsJfrFile *file,
                                              guint        chunk,
                                              guint        index);
const JvmsJfrType *jvms_jfr_file_find_type   (JvmsJfrFile *file,
                                              guint        chunk,
                                              const char  *name);

/* Ticks of @chunk to ns since the Unix epoch with the chunk's time base (base_nanos +
 * (ticks - base_ticks) / (ticks_per_second / 1e9), like the JDK); events that began before
 * the chunk (negative differences) are handled, results saturate instead of overflowing. */
gint64 jvms_jfr_chunk_ticks_to_epoch_ns (const JvmsJfrChunkInfo *chunk,
                                         gint64                  ticks);
/* A span in ticks of @chunk to ns. */
gint64 jvms_jfr_chunk_ticks_to_ns       (const JvmsJfrChunkInfo *chunk,
                                         gint64                  ticks);

/* Decoding steps the calling thread has taken in this library so far (compound values walked,
 * values read, metadata elements and strings parsed, chunk and metadata keys compared): a
 * count, not a time, that tests use to check that a file costs work in proportion to its
 * size. */
guint64 jvms_jfr_work_steps (void);

/* Damage that was survived. */
typedef struct
{
  guint       chunk;      /* which chunk header of the file, from 0, counting skipped chunks
                           * too (so it can differ from JvmsJfrChunkInfo.index after a
                           * skipped chunk); G_MAXUINT when not about one chunk */
  guint64     offset;     /* byte offset in the file where the problem was found */
  const char *structure;  /* static string: "chunk header", "record", "metadata",
                           * "checkpoint", "constant pool", "event", "string", "file" */
  const char *message;    /* a full sentence naming the file, chunk, offset and structure */
} JvmsJfrWarning;

/* A GPtrArray of const JvmsJfrWarning *, owned by the file. It grows while readers load
 * chunks, so read it after the reader finished to see everything. */
const GPtrArray *jvms_jfr_file_get_warnings (JvmsJfrFile *file);

/* ---------------------------------------------------------------------------------------- */
/* Metadata: types, fields, annotations, settings                                            */

typedef enum
{
  JVMS_JFR_KIND_BOOLEAN,
  JVMS_JFR_KIND_BYTE,
  JVMS_JFR_KIND_SHORT,
  JVMS_JFR_KIND_CHAR,
  JVMS_JFR_KIND_INT,
  JVMS_JFR_KIND_LONG,
  JVMS_JFR_KIND_FLOAT,
  JVMS_JFR_KIND_DOUBLE,
  JVMS_JFR_KIND_STRING,   /* java.lang.String */
  JVMS_JFR_KIND_OBJECT,   /* any compound type (including simpleType ones) */
} JvmsJfrKind;

guint64             jvms_jfr_type_get_id          (const JvmsJfrType *type);
const char         *jvms_jfr_type_get_name        (const JvmsJfrType *type);
/* The supertype's name ("jdk.jfr.Event" for events), or NULL. */
const char         *jvms_jfr_type_get_super_type  (const JvmsJfrType *type);
JvmsJfrKind         jvms_jfr_type_get_kind        (const JvmsJfrType *type);
gboolean            jvms_jfr_type_is_event        (const JvmsJfrType *type);
gboolean            jvms_jfr_type_is_simple       (const JvmsJfrType *type);
/* @jdk.jfr.Label / @jdk.jfr.Description values, or NULL. */
const char         *jvms_jfr_type_get_label       (const JvmsJfrType *type);
const char         *jvms_jfr_type_get_description (const JvmsJfrType *type);
/* @jdk.jfr.Category values as a NULL-terminated array (empty when none). */
const char * const *jvms_jfr_type_get_category    (const JvmsJfrType *type);

guint               jvms_jfr_type_get_n_fields    (const JvmsJfrType *type);
const JvmsJfrField *jvms_jfr_type_get_field       (const JvmsJfrType *type,
                                                   guint              index);
/* The field called @name, or NULL. Look up once per type, keep the handle. */
const JvmsJfrField *jvms_jfr_type_find_field      (const JvmsJfrType *type,
                                                   const char        *name);
/* The field jvms_jfr_event_get_stack_trace() and _get_stack_trace_key() read (the last one
 * called stackTrace of type jdk.types.StackTrace, not an array), or NULL. */
const JvmsJfrField *jvms_jfr_type_get_stack_trace_field (const JvmsJfrType *type);

guint                    jvms_jfr_type_get_n_annotations (const JvmsJfrType *type);
const JvmsJfrAnnotation *jvms_jfr_type_get_annotation    (const JvmsJfrType *type,
                                                          guint              index);
guint                    jvms_jfr_type_get_n_settings    (const JvmsJfrType *type);
const JvmsJfrSetting    *jvms_jfr_type_get_setting       (const JvmsJfrType *type,
                                                          guint              index);

const char        *jvms_jfr_field_get_name           (const JvmsJfrField *field);
guint              jvms_jfr_field_get_index          (const JvmsJfrField *field);
const JvmsJfrType *jvms_jfr_field_get_type           (const JvmsJfrField *field);
gboolean           jvms_jfr_field_is_array           (const JvmsJfrField *field);
gboolean           jvms_jfr_field_is_constant_pool   (const JvmsJfrField *field);
const char        *jvms_jfr_field_get_label          (const JvmsJfrField *field);
const char        *jvms_jfr_field_get_description    (const JvmsJfrField *field);
guint                    jvms_jfr_field_get_n_annotations (const JvmsJfrField *field);
const JvmsJfrAnnotation *jvms_jfr_field_get_annotation    (const JvmsJfrField *field,
                                                           guint               index);

/* How to interpret a field's number, from its annotations. */
typedef enum
{
  JVMS_JFR_UNIT_NONE,
  JVMS_JFR_UNIT_TIMESTAMP_TICKS,       /* @Timestamp(TICKS) */
  JVMS_JFR_UNIT_TIMESTAMP_MS_EPOCH,    /* @Timestamp(MILLISECONDS_SINCE_EPOCH) */
  JVMS_JFR_UNIT_TIMESPAN_TICKS,        /* @Timespan(TICKS) */
  JVMS_JFR_UNIT_TIMESPAN_NS,
  JVMS_JFR_UNIT_TIMESPAN_US,
  JVMS_JFR_UNIT_TIMESPAN_MS,
  JVMS_JFR_UNIT_TIMESPAN_S,
  JVMS_JFR_UNIT_BYTES,                 /* @DataAmount(BYTES) */
  JVMS_JFR_UNIT_BITS,                  /* @DataAmount(BITS) */
  JVMS_JFR_UNIT_PERCENTAGE,            /* @Percentage: 0…1 */
  JVMS_JFR_UNIT_ADDRESS,               /* @MemoryAddress */
  JVMS_JFR_UNIT_FREQUENCY,             /* @Frequency (Hz) */
} JvmsJfrUnit;

JvmsJfrUnit jvms_jfr_field_get_unit        (const JvmsJfrField *field);
gboolean    jvms_jfr_field_is_unsigned     (const JvmsJfrField *field); /* @Unsigned */

const JvmsJfrType *jvms_jfr_annotation_get_type      (const JvmsJfrAnnotation *annotation);
/* The value of attribute @name ("value", "value-0", …), or NULL. */
const char        *jvms_jfr_annotation_get_attribute (const JvmsJfrAnnotation *annotation,
                                                      const char              *name);
/* The annotation of type @type_name on a type or field, or NULL. */
const JvmsJfrAnnotation *jvms_jfr_type_find_annotation  (const JvmsJfrType  *type,
                                                         const char         *type_name);
const JvmsJfrAnnotation *jvms_jfr_field_find_annotation (const JvmsJfrField *field,
                                                         const char         *type_name);

const char        *jvms_jfr_setting_get_name          (const JvmsJfrSetting *setting);
const JvmsJfrType *jvms_jfr_setting_get_type          (const JvmsJfrSetting *setting);
const char        *jvms_jfr_setting_get_default_value (const JvmsJfrSetting *setting);

/* ---------------------------------------------------------------------------------------- */
/* Reading events                                                                            */

typedef enum
{
  /* Non-decreasing start time across all chunks (the default). */
  JVMS_JFR_ORDER_TIME,
  /* File order (chunk by chunk, record by record): cheaper; what a truncation test wants. */
  JVMS_JFR_ORDER_FILE,
} JvmsJfrOrder;

JvmsJfrReader *jvms_jfr_reader_new  (JvmsJfrFile   *file,
                                     JvmsJfrOrder   order);
void           jvms_jfr_reader_free (JvmsJfrReader *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsJfrReader, jvms_jfr_reader_free)

/* The next event, or NULL at the end. Damage met on the way (a corrupt or cut chunk) is
 * added to the file's warnings and reading goes on with what remains; the reader never
 * stops early without a warning saying why. */
const JvmsJfrEvent *jvms_jfr_reader_next (JvmsJfrReader *reader);

/* Threads, stack traces, frames: resolved from the constant pools, cached per chunk. */
typedef struct
{
  guint64     key;            /* constant-pool key in its chunk */
  const char *os_name;        /* NULL when unknown (virtual threads) */
  gint64      os_thread_id;   /* Linux TID; 0 when unknown */
  const char *java_name;      /* NULL for JVM-internal threads */
  gint64      java_thread_id; /* 0 for JVM-internal threads */
  const char *group_name;     /* thread group, NULL when none */
  gboolean    is_virtual;     /* JDK 19+ virtual thread */
} JvmsJfrThread;

/* A frame whose method key is not in its chunk's method pool (or whose method has no name)
 * has a NULL method_name and class_name: a profiler shows it as [unknown]; a method whose
 * class is not in the class pool has its name and a NULL class_name. */
typedef struct
{
  const char *method_name;  /* NULL when unresolved */
  const char *class_name;   /* Java source form: "com.example.Foo", "long[]"; NULL when
                             * unresolved */
  const char *descriptor;   /* "(Ljava/lang/Object;)V" */
  const char *type;         /* "Interpreted", "JIT compiled", "Inlined", "Native", or NULL;
                             * one copy per name in a chunk (up to 8 names): within a chunk,
                             * equal types have equal addresses */
  gint32      line_number;  /* -1 when unknown */
  gint32      bytecode_index;
  gint32      modifiers;    /* method modifiers (java.lang.reflect.Modifier bits) */
  gboolean    hidden;       /* method.hidden (JDK 15+), FALSE when absent */
} JvmsJfrFrame;

typedef struct
{
  guint64             key;       /* constant-pool key in its chunk */
  gboolean            truncated; /* more frames existed than were recorded: the file's
                                  * truncated flag, or more than the 8,192 frames decoded;
                                  * a profiler adds a [truncated] frame at the root */
  guint               n_frames;
  const JvmsJfrFrame *frames;    /* top frame first */
} JvmsJfrStackTrace;

const JvmsJfrType      *jvms_jfr_event_get_type        (const JvmsJfrEvent *event);
/* Shortcuts for the type's name and @Label (may be NULL). */
const char             *jvms_jfr_event_get_type_name   (const JvmsJfrEvent *event);
const char             *jvms_jfr_event_get_type_label  (const JvmsJfrEvent *event);
const JvmsJfrChunkInfo *jvms_jfr_event_get_chunk       (const JvmsJfrEvent *event);
guint64                 jvms_jfr_event_get_file_offset (const JvmsJfrEvent *event);
/* Which loading of its chunk the event was read from: the strings, frames and other constants
 * it resolves to stay at their addresses while that loading lasts, and the reader may load a
 * chunk more than once (its events out of time order come from a loading of their own, after
 * the first may have been freed). An id never 0, never given twice in the process: a cache
 * keyed by those addresses is valid only within one id. */
guint64                 jvms_jfr_event_get_load        (const JvmsJfrEvent *event);
gint64                  jvms_jfr_event_get_start_ticks (const JvmsJfrEvent *event);
/* ns since the Unix epoch */
gint64                  jvms_jfr_event_get_start_ns    (const JvmsJfrEvent *event);
/* 0 when the type has no duration field */
gint64                  jvms_jfr_event_get_duration_ns (const JvmsJfrEvent *event);
gint64                  jvms_jfr_event_get_end_ns      (const JvmsJfrEvent *event);
/* The eventThread field, or NULL when the type has none or it is null/unresolved. */
const JvmsJfrThread    *jvms_jfr_event_get_thread      (const JvmsJfrEvent *event);
/* The stackTrace field, or NULL when the type has none or it is null/unresolved (a stack
 * constant whose frames do not fit its record is dropped when the chunk is read, with a
 * warning: its events have no stack). No count read from the file sizes an allocation
 * beyond what its record holds. */
const JvmsJfrStackTrace *jvms_jfr_event_get_stack_trace (const JvmsJfrEvent *event);
/* The constant-pool key of the event's stack trace as the event holds it, without resolving
 * it (no pool lookup, no frames decoded): what a caller that remembers stacks per (chunk, key)
 * looks up first. FALSE when the type has no stack trace field, the field is not a pool
 * reference, or the event is damaged there. */
gboolean jvms_jfr_event_get_stack_trace_key (const JvmsJfrEvent *event, guint64 *key);
/* The same for any field of the event that refers to a constant of its chunk (a thread, a class):
 * the key it holds, unresolved. Within a chunk, equal keys of one pool are the same constant.
 * FALSE when @field is not the event's, not a pool reference, or damaged there. */
gboolean jvms_jfr_event_get_pool_key (const JvmsJfrEvent *event, const JvmsJfrField *field, guint64 *key);

/* ---------------------------------------------------------------------------------------- */
/* Generic values                                                                            */

/* A compound value. Copy it freely; it points into the reader (see lifetimes above). */
typedef struct
{
  const JvmsJfrType *type;
  /*< private >*/
  gpointer           priv_chunk;
  const guint8      *priv_data;
  const guint8      *priv_end;
  const guint32     *priv_offsets;
  gpointer           priv_entry;
} JvmsJfrObject;

typedef enum
{
  JVMS_JFR_VALUE_NULL,     /* null string, or a constant-pool key that is not defined */
  JVMS_JFR_VALUE_BOOLEAN,  /* .b */
  JVMS_JFR_VALUE_INTEGER,  /* byte, short, char, int, long: .i sign-extended from its declared
                            * width (char zero-extended), .u zero-extended from that width */
  JVMS_JFR_VALUE_FLOAT,    /* float, double: .d */
  JVMS_JFR_VALUE_STRING,   /* .s, UTF-8 */
  JVMS_JFR_VALUE_OBJECT,   /* .object */
  JVMS_JFR_VALUE_ARRAY,    /* .array; iterate with JvmsJfrArrayIter */
} JvmsJfrValueKind;

typedef struct
{
  JvmsJfrValueKind   kind;
  const JvmsJfrType *type;      /* declared type (element type for arrays) */
  gboolean           from_pool; /* the wire held a constant-pool key (cp field or string
                                 * encoding 2) */
  guint64            pool_key;  /* that key */
  union
  {
    gboolean      b;
    struct { gint64 i; guint64 u; };
    double        d;
    const char   *s;
    JvmsJfrObject object;
    struct
    {
      guint64  length;
      /*< private >*/
      gpointer      priv_chunk;
      const guint8 *priv_data;
      const guint8 *priv_end;
      gboolean      priv_cp;
    } array;
  };
} JvmsJfrValue;

typedef struct
{
  /*< private >*/
  JvmsJfrValue  priv_array;
  guint64       priv_index;
  const guint8 *priv_pos;
} JvmsJfrArrayIter;

/* The event as an object: its type is the event type, its fields the event's fields. */
void     jvms_jfr_event_get_object (const JvmsJfrEvent *event,
                                    JvmsJfrObject      *out);

/* Reads @field (a field of @object's type) into @out. FALSE (with @out set to NULL kind)
 * when the bytes are damaged; a constant-pool key that is not defined gives a NULL value and
 * TRUE. */
gboolean jvms_jfr_object_get_value (const JvmsJfrObject *object,
                                    const JvmsJfrField  *field,
                                    JvmsJfrValue        *out);

/* Every field of @event at once, in declaration order: @values[i] as
 * jvms_jfr_object_get_value() would give field i. One pass over the event, so cheaper than a
 * call per field when most fields are wanted. Fills MIN (@n_values, number of fields) values
 * and returns how many were read before damage (the damaged field and those after it are NULL
 * values). */
guint    jvms_jfr_event_get_values (const JvmsJfrEvent *event,
                                    JvmsJfrValue       *values,
                                    guint               n_values);

void     jvms_jfr_array_iter_init  (JvmsJfrArrayIter   *iter,
                                    const JvmsJfrValue *array);
/* FALSE after the last element or when the bytes are damaged. */
gboolean jvms_jfr_array_iter_next  (JvmsJfrArrayIter   *iter,
                                    JvmsJfrValue       *element);

/* Typed helpers: each returns FALSE when the field is absent (NULL handle), has another
 * kind, is null, or is damaged. They work on any object (events included). */
gboolean jvms_jfr_object_get_int64   (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      gint64 *out);
gboolean jvms_jfr_object_get_uint64  (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      guint64 *out);
gboolean jvms_jfr_object_get_double  (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      double *out);   /* integers are converted too */
gboolean jvms_jfr_object_get_boolean (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      gboolean *out);
/* A string field, or a simpleType wrapping one (jdk.types.Symbol, GCName, GCCause, …). */
gboolean jvms_jfr_object_get_string  (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      const char **out);
/* A java.lang.Class field: its name in Java source form ("java.lang.String", "long[]"). */
gboolean jvms_jfr_object_get_class_name (const JvmsJfrObject *object, const JvmsJfrField *field,
                                         const char **out);
/* A jdk.types.Method field, as "com.example.Foo.bar(int)"-free parts. */
gboolean jvms_jfr_object_get_method  (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      const char **class_name, const char **method_name,
                                      const char **descriptor);
gboolean jvms_jfr_object_get_thread  (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      const JvmsJfrThread **out);
gboolean jvms_jfr_object_get_stack_trace (const JvmsJfrObject *object, const JvmsJfrField *field,
                                          const JvmsJfrStackTrace **out);
gboolean jvms_jfr_object_get_object  (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      JvmsJfrObject *out);

/* The same decoded forms from a value already read (jvms_jfr_event_get_values(), an array
 * element): FALSE when the value is not of that kind, or is a constant the chunk lacks. */
gboolean jvms_jfr_value_get_string      (const JvmsJfrValue *value, const char **out);
gboolean jvms_jfr_value_get_class_name  (const JvmsJfrValue *value, const char **out);
gboolean jvms_jfr_value_get_thread      (const JvmsJfrValue *value, const JvmsJfrThread **out);
gboolean jvms_jfr_value_get_stack_trace (const JvmsJfrValue *value, const JvmsJfrStackTrace **out);
/* A time field converted by its annotation: @Timestamp → ns since the epoch, @Timespan → ns.
 * FALSE for fields with neither, or holding Long.MIN_VALUE ("not set"). */
gboolean jvms_jfr_object_get_time_ns (const JvmsJfrObject *object, const JvmsJfrField *field,
                                      gint64 *out);

/* Event shortcuts: the same on the event's own fields. Field names the analysis uses, as
 * JDK 17 writes them (JDK 11/21 differ only where noted in docs/jfr-format.md):
 *   jdk.JavaMonitorEnter: monitorClass (class), previousOwner (thread), address (uint64)
 *   jdk.JavaMonitorWait:  monitorClass, notifier (thread), timeout (ms), timedOut, address
 *   jdk.ThreadPark:       parkedClass (class), timeout (ns), until (ms epoch), address
 *   jdk.ThreadSleep:      time (ms)
 *   jdk.GarbageCollection: gcId, name (string), cause (string), sumOfPauses, longestPause
 *   jdk.GCPhasePause*, jdk.GCPhaseParallel, jdk.GCPhaseConcurrent: gcId, name
 *   jdk.GCHeapSummary:    gcId, when (string), heapUsed, heapSpace (object)
 *   jdk.Compilation:      compileId, compiler, method (method), compileLevel, succeded, isOsr
 *   jdk.ExecuteVMOperation: operation (string), safepoint, blocking, caller (thread),
 *                           safepointId
 *   jdk.SafepointBegin/End: safepointId
 *   jdk.ExecutionSample / jdk.NativeMethodSample: sampledThread (thread), stackTrace, state
 *   jdk.ThreadStart/End:  thread, parentThread (start only)
 *   jdk.ObjectAllocationSample: objectClass, weight; …InNewTLAB: objectClass, allocationSize,
 *                           tlabSize; …OutsideTLAB: objectClass, allocationSize
 *   jdk.SocketRead/Write, jdk.FileRead/Write: host, address, port, path, bytesRead/Written */
gboolean jvms_jfr_event_get_int64      (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                        gint64 *out);
gboolean jvms_jfr_event_get_uint64     (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                        guint64 *out);
gboolean jvms_jfr_event_get_double     (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                        double *out);
gboolean jvms_jfr_event_get_boolean    (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                        gboolean *out);
gboolean jvms_jfr_event_get_string     (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                        const char **out);
gboolean jvms_jfr_event_get_class_name (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                        const char **out);
gboolean jvms_jfr_event_get_thread_field (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                          const JvmsJfrThread **out);
gboolean jvms_jfr_event_get_time_ns    (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                        gint64 *out);
gboolean jvms_jfr_event_get_value      (const JvmsJfrEvent *event, const JvmsJfrField *field,
                                        JvmsJfrValue *out);

G_END_DECLS
