// The baseline of bench-jfr: the JDK's own reader (jdk.jfr.consumer.RecordingFile) reading
// every event of a file and every field of every event, once to warm up, then timed.
import java.nio.file.*;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.*;

public class JdkRead {
    static long pass(Path path) throws Exception {
        long events = 0, touched = 0;
        try (RecordingFile file = new RecordingFile(path)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                events++;
                for (ValueDescriptor d : e.getFields()) {
                    Object v = e.getValue(d.getName());
                    if (v != null) touched += v.hashCode() & 1;
                }
            }
        }
        if (touched < 0) System.out.println(touched);
        return events;
    }

    public static void main(String[] args) throws Exception {
        Path path = Paths.get(args[0]);
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        pass(path);
        long c0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long events = pass(path);
        long t1 = System.nanoTime();
        long c1 = os.getProcessCpuTime();
        // wall time, and CPU time of the whole JVM (reader, JIT and GC threads) for the pass
        System.out.println("events " + events + " ns " + (t1 - t0) + " cpu_ns " + (c1 - c0));
    }
}
