// A workload with known hot methods in known threads, one per kind of cost the profiler weighs:
// the test checks that each thread's profile of its kind is led by its own method.
package profilework;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

public class ProfileWork {
    static volatile long sink;
    static final Object lock = new Object();
    static final Object waitObject = new Object();
    static volatile boolean running = true;

    static long hotAlpha(long n) {
        long x = 1;
        for (long i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    static long hotBeta(long n) {
        long a = 0, b = 1;
        for (long i = 0; i < n; i++) {
            long c = a ^ (b << 1) ^ (b >>> 3);
            a = b;
            b = c + i;
        }
        return b;
    }

    static void allocate() {
        List<byte[]> keep = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            keep.add(new byte[1024 + (i & 255)]);
        }
        sink += keep.size();
    }

    static void lockedWork() {
        synchronized (lock) {
            sink += hotAlpha(300_000);
        }
    }

    static void waitLoop() throws InterruptedException {
        synchronized (waitObject) {
            waitObject.wait(4);
        }
    }

    static void parkLoop() {
        LockSupport.parkNanos(3_000_000L);
    }

    static void sleepLoop() throws InterruptedException {
        Thread.sleep(3);
    }

    static void ioLoop(Path file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            byte[] block = new byte[64 * 1024];
            f.write(block);
            f.getFD().sync();
            f.seek(0);
            f.read(block);
        }
    }

    static void throwLoop() {
        try {
            throw new AssertionError("expected");
        } catch (AssertionError e) {
            sink++;
        }
        LockSupport.parkNanos(100_000L);
    }

    interface Body {
        void run() throws Exception;
    }

    static Thread start(String name, Body body) {
        Thread t = new Thread(() -> {
            while (running) {
                try {
                    body.run();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }
        }, name);
        t.start();
        return t;
    }

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[0]);
        Path io = Files.createTempFile("profilework", ".bin");
        List<Thread> threads = new ArrayList<>();
        threads.add(start("cpu-alpha", () -> sink += hotAlpha(1_000_000)));
        threads.add(start("cpu-beta", () -> sink += hotBeta(1_000_000)));
        threads.add(start("allocator", ProfileWork::allocate));
        threads.add(start("locker-1", ProfileWork::lockedWork));
        threads.add(start("locker-2", ProfileWork::lockedWork));
        threads.add(start("waiter", ProfileWork::waitLoop));
        threads.add(start("parker", ProfileWork::parkLoop));
        threads.add(start("sleeper", ProfileWork::sleepLoop));
        threads.add(start("io", () -> ioLoop(io)));
        threads.add(start("thrower", ProfileWork::throwLoop));
        Thread.sleep(millis);
        running = false;
        for (Thread t : threads) {
            t.join();
        }
        Files.deleteIfExists(io);
    }
}
