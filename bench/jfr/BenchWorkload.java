// The JVM workload behind bench-jfr's recording: many threads producing many kinds of events
// as fast as they can (park, sleep, monitor contention, wait/notify, file and socket I/O,
// allocation, GC, compilation), with every event enabled and thresholds 0.
import java.io.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.*;

public class BenchWorkload {
    static volatile boolean running = true;
    static final Object lock = new Object();
    static volatile Object sink;
    static long counter;

    static long work(long x, int depth) {
        if (depth > 0) return work(x * 31 + depth, depth - 1);
        long s = 0;
        for (int i = 0; i < 200; i++) s += (x * i) ^ (s >>> 3);
        return s;
    }

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[0]);
        Path dir = Files.createTempDirectory("jvms-bench");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            final int depth = 3 + t * 5;
            threads.add(new Thread(() -> {
                while (running) { LockSupport.parkNanos(1000); work(1, depth); }
            }, "parker-" + t));
        }
        threads.add(new Thread(() -> {
            while (running) { try { Thread.sleep(0, 1000); } catch (InterruptedException e) { return; } }
        }, "sleeper"));
        for (int t = 0; t < 3; t++) {
            threads.add(new Thread(() -> {
                while (running) synchronized (lock) { counter += work(counter, 8); }
            }, "contend-" + t));
        }
        threads.add(new Thread(() -> {
            try {
                Path f = dir.resolve("data.bin");
                byte[] buf = new byte[64];
                while (running) {
                    try (FileOutputStream out = new FileOutputStream(f.toFile())) {
                        for (int i = 0; i < 50; i++) out.write(buf);
                    }
                    try (FileInputStream in = new FileInputStream(f.toFile())) {
                        while (in.read(buf) > 0) { }
                    }
                }
                Files.deleteIfExists(f);
            } catch (IOException e) { throw new UncheckedIOException(e); }
        }, "file-io"));
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.add(new Thread(() -> {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                byte[] buf = new byte[16];
                int n;
                while ((n = in.read(buf)) > 0) out.write(buf, 0, n);
            } catch (IOException e) { }
        }, "echo-server"));
        threads.add(new Thread(() -> {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                byte[] buf = new byte[16];
                while (running) {
                    out.write(buf);
                    int got = 0;
                    while (got < buf.length) got += in.read(buf, got, buf.length - got);
                }
            } catch (IOException e) { }
        }, "echo-client"));
        threads.add(new Thread(() -> {
            long i = 0;
            while (running) {
                sink = new byte[(int) (i++ % 32) * 1024 + 16];
                sink = new StringBuilder().append(i).toString();
                if (i % 20000 == 0) System.gc();
            }
        }, "allocator"));
        for (Thread t : threads) t.start();
        Thread.sleep(millis);
        running = false;
        for (Thread t : threads) if (!t.getName().equals("echo-server")) t.join();
        server.close();
        Files.deleteIfExists(dir);
    }
}
