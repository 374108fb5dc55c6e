// A small JVM workload for the JFR reader tests: every thread does one kind of thing the
// recording must show (sleep, park, monitor contention, wait/notify, file and socket I/O,
// allocation, GC, JIT compilation), for the number of milliseconds given as argument.
import java.io.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.*;

public class Workload {
    static volatile boolean running = true;
    static final Object lock = new Object();
    static final Object waitLock = new Object();
    static long counter;
    static volatile Object sink;

    static long hot(long x) {
        long s = 0;
        for (int i = 0; i < 1000; i++) s += (x * i) ^ (s >>> 3);
        return s;
    }

    public static void main(String[] args) throws Exception {
        long millis = args.length > 0 ? Long.parseLong(args[0]) : 2000;
        // "rotate": start and stop a second recording now and then; each start makes the JVM
        // begin a new chunk, so the file has several chunks with events across rotations.
        boolean rotate = args.length > 1 && args[1].equals("rotate");
        Path dir = Files.createTempDirectory("jvms-workload");
        List<Thread> threads = new ArrayList<>();

        threads.add(new Thread(() -> {
            while (running) { try { Thread.sleep(7); } catch (InterruptedException e) { return; } }
        }, "sleeper"));
        threads.add(new Thread(() -> {
            while (running) LockSupport.parkNanos(Workload.class, 5_000_000L);
        }, "parker"));
        for (int t = 0; t < 3; t++) {
            threads.add(new Thread(() -> {
                while (running) {
                    synchronized (lock) {
                        counter += hot(counter);
                        try { Thread.sleep(1); } catch (InterruptedException e) { return; }
                    }
                }
            }, "contend-" + t));
        }
        threads.add(new Thread(() -> {
            while (running) {
                synchronized (waitLock) {
                    try { waitLock.wait(3); } catch (InterruptedException e) { return; }
                }
            }
        }, "waiter"));
        threads.add(new Thread(() -> {
            try {
                Path f = dir.resolve("data.bin");
                byte[] buf = new byte[8192];
                while (running) {
                    try (FileOutputStream out = new FileOutputStream(f.toFile())) {
                        for (int i = 0; i < 4; i++) out.write(buf);
                    }
                    try (FileInputStream in = new FileInputStream(f.toFile())) {
                        while (in.read(buf) > 0) { }
                    }
                    Thread.sleep(2);
                }
                Files.deleteIfExists(f);
            } catch (Exception e) { throw new RuntimeException(e); }
        }, "file-io"));
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.add(new Thread(() -> {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                byte[] buf = new byte[512];
                int n;
                while ((n = in.read(buf)) > 0) out.write(buf, 0, n);
            } catch (IOException e) { }
        }, "echo-server"));
        threads.add(new Thread(() -> {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                byte[] buf = new byte[512];
                while (running) {
                    out.write(buf);
                    int got = 0;
                    while (got < buf.length) got += in.read(buf, got, buf.length - got);
                    Thread.sleep(3);
                }
            } catch (Exception e) { }
        }, "echo-client"));
        threads.add(new Thread(() -> {
            long i = 0;
            while (running) {
                sink = new byte[(int) (i++ % 64) * 1024 + 16];
                sink = new long[100];
                sink = "s" + i;
                if (i % 2000 == 0) System.gc();
                if (i % 20 == 0) LockSupport.parkNanos(100_000L);
            }
        }, "allocator"));
        threads.add(new Thread(() -> {
            long x = 0;
            while (running) x += hot(x);
            sink = x;
        }, "compute"));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        threads.add(new Thread(() -> {
            while (running) {
                try {
                    pool.submit(() -> hot(3)).get();
                    Thread.sleep(1);
                } catch (Exception e) { return; }
            }
        }, "submitter"));

        if (rotate) {
            threads.add(new Thread(() -> {
                while (running) {
                    try (jdk.jfr.Recording r = new jdk.jfr.Recording()) {
                        Thread.sleep(400);
                        r.start();
                        Thread.sleep(50);
                        r.stop();
                    } catch (InterruptedException e) { return; }
                }
            }, "rotator"));
        }
        for (Thread t : threads) t.start();
        Thread.sleep(millis);
        running = false;
        for (Thread t : threads) if (!t.getName().equals("echo-server")) t.join();
        server.close();
        pool.shutdown();
        Files.deleteIfExists(dir);
    }
}
