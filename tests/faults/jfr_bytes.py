"""A JFR file built byte by byte (as tests/jfr/test-jfr-synthetic.c builds its own): one chunk
with a constant pool of one thread and `jdk.ThreadSleep` events, with the chunk header's fields
given by the caller, so that a test can write a recording whose header disagrees with its
events (a JVM that died before finalising the header: duration 0)."""
import struct

START_NANOS = 1700000000000000000
START_TICKS = 1000


def varint(v):
    out = bytearray()
    for _ in range(8):
        if v < 0x80:
            out.append(v)
            return bytes(out)
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v & 0xFF)
    return bytes(out)


def utf8(s):
    b = s.encode()
    return b"\x03" + varint(len(b)) + b


def record(type_id, payload):
    """Size as a 4-byte padded varint (as HotSpot patches sizes), then type, then payload."""
    body = varint(type_id) + payload
    size = len(body) + 4
    return bytes([(size & 0x7F) | 0x80, ((size >> 7) & 0x7F) | 0x80,
                  ((size >> 14) & 0x7F) | 0x80, (size >> 21) & 0x7F]) + body


class Metadata:
    def __init__(self):
        self.strings = []
        self.tree = bytearray()

    def s(self, text):
        if text not in self.strings:
            self.strings.append(text)
        return self.strings.index(text)

    def elem(self, element, n_children, **attrs):
        self.tree += varint(self.s(element)) + varint(len(attrs))
        for k, v in attrs.items():
            self.tree += varint(self.s(k)) + varint(self.s(v))
        self.tree += varint(n_children)

    def field(self, name, cls, cp=False, annotation=None):
        attrs = {"name": name, "class": cls}
        if cp:
            attrs["constantPool"] = "true"
        self.elem("field", 1 if annotation else 0, **attrs)
        if annotation:
            self.elem("annotation", 0, **{"class": annotation[0], "value": annotation[1]})

    def payload(self):
        p = varint(0) + varint(0) + varint(1) + varint(len(self.strings))
        p += b"".join(utf8(t) for t in self.strings)
        return p + bytes(self.tree)


SLEEP_TYPE = 30


def metadata():
    md = Metadata()
    md.elem("root", 2)
    md.elem("metadata", 6)
    md.elem("class", 0, name="long", id="15")
    md.elem("class", 0, name="java.lang.String", id="18")
    md.elem("class", 4, name="java.lang.Thread", id="20")
    md.field("osName", "18")
    md.field("osThreadId", "15")
    md.field("javaName", "18")
    md.field("javaThreadId", "15")
    md.elem("class", 1, name="jdk.jfr.Timestamp", id="40", superType="java.lang.annotation.Annotation")
    md.field("value", "18")
    md.elem("class", 1, name="jdk.jfr.Timespan", id="41", superType="java.lang.annotation.Annotation")
    md.field("value", "18")
    md.elem("class", 4, name="jdk.ThreadSleep", id=str(SLEEP_TYPE), superType="jdk.jfr.Event")
    md.field("startTime", "15", annotation=("40", "TICKS"))
    md.field("duration", "15", annotation=("41", "TICKS"))
    md.field("eventThread", "20", cp=True)
    md.field("time", "15", annotation=("41", "NANOSECONDS"))
    md.elem("region", 0, gmtOffset="0")
    return md.payload()


def checkpoint():
    """One pool: thread 1, "worker", OS tid 4242, Java id 17."""
    p = varint(START_TICKS) + varint(0) + varint(0) + b"\x00" + varint(1)
    p += varint(20) + varint(1)
    p += varint(1) + utf8("worker") + varint(4242) + utf8("worker") + varint(17)
    return p


def sleep_event(ticks, duration):
    """startTime, duration, eventThread (pool key 1), time."""
    return varint(ticks) + varint(duration) + varint(1) + varint(duration)


def chunk(n_events, duration_nanos, spacing=1000, sleep=500, start_nanos=START_NANOS):
    """A whole file: header, checkpoint, metadata, then @n_events sleeps @spacing ticks apart
    (ticks are ns), the header saying the chunk began at @start_nanos and lasted
    @duration_nanos."""
    body = bytearray(68)
    cp_offset = len(body)
    body += record(1, checkpoint())
    md_offset = len(body)
    body += record(0, metadata())
    for i in range(n_events):
        body += record(SLEEP_TYPE, sleep_event(START_TICKS + (i + 1) * spacing, sleep))
    header = b"FLR\x00" + struct.pack(">HHQQQQQQQBBH", 2, 1, len(body), cp_offset, md_offset,
                                        start_nanos, duration_nanos, START_TICKS, 1000000000, 0, 0, 3)
    assert len(header) == 68
    body[0:68] = header
    return bytes(body)
