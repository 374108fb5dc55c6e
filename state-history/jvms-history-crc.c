/* jvms-history-crc.c: CRC32C (Castagnoli) for nodes, tables and the header.
 *
 * Why CRC32C: it detects every burst error up to 32 bits and all odd bit counts, it is the
 * checksum ext4, btrfs and iSCSI chose for the same job, and x86-64 computes it in hardware
 * (SSE4.2 crc32 instruction, ~8 bytes a cycle), so checking every node read costs little next
 * to lz4. lz4's xxhash is not public API; GLib's g_compute_checksum_for_data() only offers
 * cryptographic hashes that are far slower than needed. The portable path is slicing-by-8. */
#include "jvms-history-private.h"

static guint32 crc_table[8][256];
static gsize crc_table_ready = 0;

static void
crc_init_table (void)
{
  for (guint i = 0; i < 256; i++)
    {
      guint32 c = i;
      for (guint k = 0; k < 8; k++)
        c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
      crc_table[0][i] = c;
    }
  for (guint i = 0; i < 256; i++)
    for (guint t = 1; t < 8; t++)
      crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xFF];
}

static guint32
crc_soft (guint32 crc, const guint8 *p, gsize n)
{
  while (n >= 8)
    {
      guint32 lo = crc ^ jvms_get_u32le (p);
      guint32 hi = jvms_get_u32le (p + 4);
      crc = crc_table[7][lo & 0xFF] ^ crc_table[6][(lo >> 8) & 0xFF] ^
            crc_table[5][(lo >> 16) & 0xFF] ^ crc_table[4][lo >> 24] ^
            crc_table[3][hi & 0xFF] ^ crc_table[2][(hi >> 8) & 0xFF] ^
            crc_table[1][(hi >> 16) & 0xFF] ^ crc_table[0][hi >> 24];
      p += 8;
      n -= 8;
    }
  while (n--)
    crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xFF];
  return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_HW_CRC 1
__attribute__ ((target ("sse4.2"))) static guint32
crc_hw (guint32 crc, const guint8 *p, gsize n)
{
  guint64 c = crc;
  while (n >= 8)
    {
      guint64 v;
      memcpy (&v, p, 8);
      c = __builtin_ia32_crc32di (c, v);
      p += 8;
      n -= 8;
    }
  crc = (guint32) c;
  while (n--)
    crc = __builtin_ia32_crc32qi (crc, *p++);
  return crc;
}
#endif

static int use_hw = -1;

guint32
jvms_crc32c_update (guint32 crc, const void *data, gsize n)
{
  if (g_once_init_enter (&crc_table_ready))
    {
      crc_init_table ();
#ifdef HAVE_HW_CRC
      __builtin_cpu_init ();
      g_atomic_int_set (&use_hw, __builtin_cpu_supports ("sse4.2") ? 1 : 0);
#else
      g_atomic_int_set (&use_hw, 0);
#endif
      g_once_init_leave (&crc_table_ready, 1);
    }
  crc = ~crc;
#ifdef HAVE_HW_CRC
  if (g_atomic_int_get (&use_hw))
    return ~crc_hw (crc, data, n);
#endif
  return ~crc_soft (crc, data, n);
}

guint32
jvms_crc32c (const void *data, gsize n)
{
  return jvms_crc32c_update (0, data, n);
}
