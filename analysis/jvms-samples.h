/* jvms-samples.h: the point-sample store kept beside an index (docs/analysis.md).
 *
 * Execution samples, native method samples, allocation samples and old-object samples are
 * points, not states: the history holds only their per-thread aggregates, and this file keeps
 * each of them, in the JFR stream's order (non-decreasing time), for the report and for views
 * that need stacks. Written once by the indexer; read sequentially.
 *
 * File layout, little-endian:
 *   header   8 bytes magic "JVMSMPL1", u32 version (1), u32 reserved (0)
 *   records  u8 tag, then by tag:
 *     'S' string:   u32 length, bytes (UTF-8, no NUL); ids are dense from 0 in file order
 *     'E' execution sample, 'N' native method sample:
 *                   i64 time (epoch ns), i64 tid, u32 state string id (or NONE),
 *                   u32 n_frames (<= 64), n_frames x { u32 method string id, i32 line }
 *     'A' allocation sample:
 *                   i64 time, i64 tid, u32 class string id, u64 weight (bytes),
 *                   u32 n_frames, frames as above
 *     'O' old-object sample:
 *                   i64 time, i64 tid, u32 class string id, i64 allocation time (epoch ns),
 *                   u64 object age (ns), u32 n_frames, frames as above
 *   Frames are top first; a method string is "package.Class.method". A string is always
 *   defined before the first record that uses it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_SAMPLES_NONE       0xFFFFFFFFu
#define JVMS_SAMPLES_MAX_FRAMES 64

typedef enum
{
  JVMS_SAMPLE_EXECUTION  = 'E',
  JVMS_SAMPLE_NATIVE     = 'N',
  JVMS_SAMPLE_ALLOCATION = 'A',
  JVMS_SAMPLE_OLD_OBJECT = 'O',
} JvmsSampleKind;

typedef struct
{
  const char *method; /* "package.Class.method" */
  gint32      line;   /* -1 when unknown */
} JvmsSampleFrame;

typedef struct
{
  JvmsSampleKind         kind;
  gint64                 time;
  gint64                 tid;
  const char            *state;           /* E, N: the thread state, or NULL */
  const char            *class_name;      /* A, O */
  guint64                weight;          /* A: bytes */
  gint64                 allocation_time; /* O */
  guint64                object_age;      /* O: ns */
  guint                  n_frames;
  const JvmsSampleFrame *frames;          /* top first */
  /* Writer only: the frames' method strings are interned (same address, same bytes, for as
   * long as the writer lives), so their addresses may stand for them. */
  gboolean               frames_interned;
} JvmsSample;

typedef struct _JvmsSamplesWriter JvmsSamplesWriter;
typedef struct _JvmsSamplesReader JvmsSamplesReader;

JvmsSamplesWriter *jvms_samples_writer_new    (const char         *path,
                                               GError            **error);
/* Buffered; errors surface at close. */
void               jvms_samples_writer_add    (JvmsSamplesWriter  *self,
                                               const JvmsSample   *sample);
guint64            jvms_samples_writer_count  (JvmsSamplesWriter  *self);
gboolean           jvms_samples_writer_close  (JvmsSamplesWriter  *self,
                                               GError            **error);
/* Frees; if not closed, deletes the file. */
void               jvms_samples_writer_free   (JvmsSamplesWriter  *self);

JvmsSamplesReader *jvms_samples_reader_open   (const char         *path,
                                               GError            **error);
/* FALSE at the end (error unset) or on damage (error names file and offset). The sample and
 * its strings stay valid until the next call. */
gboolean           jvms_samples_reader_next   (JvmsSamplesReader  *self,
                                               JvmsSample         *out,
                                               GError            **error);
void               jvms_samples_reader_free   (JvmsSamplesReader  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsSamplesWriter, jvms_samples_writer_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsSamplesReader, jvms_samples_reader_free)

G_END_DECLS
