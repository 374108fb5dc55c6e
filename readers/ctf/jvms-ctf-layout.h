/* jvms-ctf-layout.h (private): where a trace's packets say how long they are.
 *
 * babeltrace2 2.0 indexes a stream file by hopping from packet to packet by the size each
 * packet declares, and loops for ever on a size under one byte. To salvage a damaged file
 * without asking babeltrace2 about every byte range (each question parses the metadata again),
 * the repair walks the packets itself: that needs the bit positions of the packet header's
 * magic, uuid and stream_id and of the packet context's content_size and packet_size, which
 * this reads from the TSDL text. Only the part of TSDL those structures use in practice is
 * understood (integer typealiases and typedefs, named and anonymous structures, fixed-length
 * arrays, enumerations); anything else before a needed field leaves the layout unknown, and
 * the repair falls back to cutting files at the packet magic.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_CTF_LAYOUT_UNKNOWN G_MAXUINT64

typedef struct
{
  guint64  id;                 /* the stream class id (0 when the metadata gives none) */
  guint64  content_size_bit;   /* bit offset from the packet start, or UNKNOWN */
  guint    content_size_bits;
  gboolean content_size_be;
  guint64  packet_size_bit;    /* bit offset from the packet start, or UNKNOWN */
  guint    packet_size_bits;
  gboolean packet_size_be;
  guint64  context_end_bit;    /* where the packet context ends: no packet is shorter */
} JvmsCtfStreamLayout;

typedef struct
{
  guint64  magic_bit;          /* UNKNOWN when the header has no magic */
  gboolean magic_be;
  guint64  uuid_bit;           /* UNKNOWN when the header has no uuid */
  gboolean has_uuid;           /* the trace block declares one */
  guint8   uuid[16];
  guint64  stream_id_bit;      /* UNKNOWN when the header has no stream_id */
  guint    stream_id_bits;
  gboolean stream_id_be;
  GArray  *streams;            /* JvmsCtfStreamLayout */
} JvmsCtfLayout;

/* The layout of @tsdl's packets; NULL when it cannot be worked out (the fields that give a
 * packet's size are missing or come after something this does not understand). */
JvmsCtfLayout *jvms_ctf_layout_parse (const char *tsdl);
void           jvms_ctf_layout_free  (JvmsCtfLayout *layout);

const JvmsCtfStreamLayout *jvms_ctf_layout_stream (const JvmsCtfLayout *layout,
                                                   guint64              id);

/* The bytes the header and context of any packet need (the largest context end). */
gsize          jvms_ctf_layout_head_bytes (const JvmsCtfLayout *layout);

/* An unsigned integer of @bits (8, 16, 32 or 64) bits at byte-aligned @bit in @data. */
guint64        jvms_ctf_layout_read (const guint8 *data, guint64 bit, guint bits, gboolean be);

/* The number of event classes @tsdl declares (top-level `event { … }` blocks), counted without
 * parsing: comments, strings and nested blocks are skipped. */
guint64        jvms_ctf_tsdl_event_classes (const char *tsdl);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsCtfLayout, jvms_ctf_layout_free)

G_END_DECLS
