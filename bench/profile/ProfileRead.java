// bench-profile's baseline: the JDK's own reader (jdk.jfr.consumer.RecordingFile) reads the whole
// recording and aggregates the same stacks as `jvmscope-cli profile --folded`: execution samples
// by count (--kind cpu) and jdk.ThreadPark by duration (--kind park), frames root first as
// "package.Class.method" joined by ';'. Prints the time of the pass (ns, in the JVM, after a
// warm-up pass over the first 200,000 events), then both folded profiles.
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

public class ProfileRead {
    static String folded(RecordedStackTrace st) {
        List<RecordedFrame> frames = st.getFrames();
        StringBuilder b = new StringBuilder();
        if (st.isTruncated()) b.append("[truncated]");
        for (int i = frames.size() - 1; i >= 0; i--) {
            RecordedFrame f = frames.get(i);
            if (b.length() > 0) b.append(';');
            if (f.getMethod() == null || f.getMethod().getType() == null) {
                b.append("[unknown]");
            } else {
                // Hidden classes ("Foo$$Lambda$14/0x...") as the JFR reader names them: "/" as ".".
                b.append(f.getMethod().getType().getName().replace('/', '.')).append('.').append(f.getMethod().getName());
            }
        }
        return b.length() == 0 ? "[unknown]" : b.toString();
    }

    static long pass(Path path, long limit, Map<String, Long> cpu, Map<String, Long> park) throws Exception {
        long n = 0;
        try (RecordingFile f = new RecordingFile(path)) {
            while (f.hasMoreEvents() && n++ < limit) {
                RecordedEvent e = f.readEvent();
                RecordedStackTrace st = e.getStackTrace();
                if (st == null) continue;
                String name = e.getEventType().getName();
                if (name.equals("jdk.ExecutionSample")) {
                    cpu.merge(folded(st), 1L, Long::sum);
                } else if (name.equals("jdk.ThreadPark")) {
                    park.merge(folded(st), Math.max(0, e.getDuration().toNanos()), Long::sum);
                }
            }
        }
        return n;
    }

    static void print(String title, Map<String, Long> m) {
        System.out.println("# " + title);
        m.entrySet().stream()
            .filter(e -> e.getValue() > 0)
            .sorted((a, b) -> a.getValue().equals(b.getValue()) ? a.getKey().compareTo(b.getKey())
                                                                : Long.compare(b.getValue(), a.getValue()))
            .forEach(e -> System.out.println(e.getKey() + " " + e.getValue()));
    }

    // ProfileRead FILE...: the files one after another, as one recording. bench-profile gives
    // the JVM runs its recording is made of, each a file: RecordingFile keeps a file's constants
    // by their ids from chunk to chunk, so that, reading the runs' files concatenated, it named
    // one run's frames with another's methods.
    public static void main(String[] args) throws Exception {
        pass(Path.of(args[0]), 200_000, new HashMap<>(), new HashMap<>());
        Map<String, Long> cpu = new HashMap<>(), park = new HashMap<>();
        long t0 = System.nanoTime();
        long n = 0;
        for (String arg : args) {
            n += pass(Path.of(arg), Long.MAX_VALUE, cpu, park);
        }
        long t1 = System.nanoTime();
        System.out.println("time_ns " + (t1 - t0) + " events " + n);
        print("cpu", cpu);
        print("park", park);
    }
}
