// The JVM workload behind bench-profile's recording: threads whose stacks vary (a call chain chosen
// from 24 methods by a running counter, 4 to 28 frames deep) spending their time computing,
// allocating, parking, sleeping and contending for a monitor, so that the recording holds many
// execution samples, allocation samples and blocking events with stack traces.
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

public class ProfileBench {
    static volatile boolean running = true;
    static volatile long sink;
    static final Object lock = new Object();

    // What a chain of calls ends in. Named classes, not lambdas or method references: a lambda's
    // class is named after its address in the JVM ("ProfileBench$$Lambda$90+0x00007fe8bc009c00"),
    // which differs from run to run, so that no stack of one JVM run would be one of another's.
    static final int COMPUTE = 0, ALLOCATE = 1, PARK = 2, PARK_PERMITTED = 3, SLEEP = 4, CONTEND = 5;

    static final class Leaf {
        final int kind;

        Leaf(int kind) {
            this.kind = kind;
        }

        void run(long seed) {
            switch (kind) {
                case COMPUTE: compute(seed); break;
                case ALLOCATE: allocate(seed); break;
                case PARK: park(seed); break;
                case PARK_PERMITTED: parkPermitted(seed); break;
                case SLEEP: sleep(seed); break;
                default: contend(seed); break;
            }
        }
    }

    // A chain of calls through m0..m23 picked from the seed's digits, ending in the thread's leaf.
    static void call(long seed, int depth, Leaf leaf) {
        if (depth == 0) {
            leaf.run(seed);
            return;
        }
        switch ((int) (seed % 24)) {
            case 0: m0(seed / 24, depth, leaf); break;
            case 1: m1(seed / 24, depth, leaf); break;
            case 2: m2(seed / 24, depth, leaf); break;
            case 3: m3(seed / 24, depth, leaf); break;
            case 4: m4(seed / 24, depth, leaf); break;
            case 5: m5(seed / 24, depth, leaf); break;
            case 6: m6(seed / 24, depth, leaf); break;
            case 7: m7(seed / 24, depth, leaf); break;
            case 8: m8(seed / 24, depth, leaf); break;
            case 9: m9(seed / 24, depth, leaf); break;
            case 10: m10(seed / 24, depth, leaf); break;
            case 11: m11(seed / 24, depth, leaf); break;
            case 12: m12(seed / 24, depth, leaf); break;
            case 13: m13(seed / 24, depth, leaf); break;
            case 14: m14(seed / 24, depth, leaf); break;
            case 15: m15(seed / 24, depth, leaf); break;
            case 16: m16(seed / 24, depth, leaf); break;
            case 17: m17(seed / 24, depth, leaf); break;
            case 18: m18(seed / 24, depth, leaf); break;
            case 19: m19(seed / 24, depth, leaf); break;
            case 20: m20(seed / 24, depth, leaf); break;
            case 21: m21(seed / 24, depth, leaf); break;
            case 22: m22(seed / 24, depth, leaf); break;
            default: m23(seed / 24, depth, leaf); break;
        }
    }

    static void m0(long s, int d, Leaf l) { call(s * 7 + 1, d - 1, l); }
    static void m1(long s, int d, Leaf l) { call(s * 7 + 2, d - 1, l); }
    static void m2(long s, int d, Leaf l) { call(s * 7 + 3, d - 1, l); }
    static void m3(long s, int d, Leaf l) { call(s * 7 + 4, d - 1, l); }
    static void m4(long s, int d, Leaf l) { call(s * 7 + 5, d - 1, l); }
    static void m5(long s, int d, Leaf l) { call(s * 7 + 6, d - 1, l); }
    static void m6(long s, int d, Leaf l) { call(s * 11 + 1, d - 1, l); }
    static void m7(long s, int d, Leaf l) { call(s * 11 + 2, d - 1, l); }
    static void m8(long s, int d, Leaf l) { call(s * 11 + 3, d - 1, l); }
    static void m9(long s, int d, Leaf l) { call(s * 11 + 4, d - 1, l); }
    static void m10(long s, int d, Leaf l) { call(s * 11 + 5, d - 1, l); }
    static void m11(long s, int d, Leaf l) { call(s * 11 + 6, d - 1, l); }
    static void m12(long s, int d, Leaf l) { call(s * 13 + 1, d - 1, l); }
    static void m13(long s, int d, Leaf l) { call(s * 13 + 2, d - 1, l); }
    static void m14(long s, int d, Leaf l) { call(s * 13 + 3, d - 1, l); }
    static void m15(long s, int d, Leaf l) { call(s * 13 + 4, d - 1, l); }
    static void m16(long s, int d, Leaf l) { call(s * 13 + 5, d - 1, l); }
    static void m17(long s, int d, Leaf l) { call(s * 13 + 6, d - 1, l); }
    static void m18(long s, int d, Leaf l) { call(s * 17 + 1, d - 1, l); }
    static void m19(long s, int d, Leaf l) { call(s * 17 + 2, d - 1, l); }
    static void m20(long s, int d, Leaf l) { call(s * 17 + 3, d - 1, l); }
    static void m21(long s, int d, Leaf l) { call(s * 17 + 4, d - 1, l); }
    static void m22(long s, int d, Leaf l) { call(s * 17 + 5, d - 1, l); }
    static void m23(long s, int d, Leaf l) { call(s * 17 + 6, d - 1, l); }

    static void compute(long seed) {
        long x = seed;
        for (int i = 0; i < 20000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink += x;
    }

    static void allocate(long seed) {
        sink += new byte[256 + (int) (seed & 4095)].length;
    }

    static void park(long seed) {
        LockSupport.parkNanos(5_000);
    }

    // A park whose permit is already there: it returns at once, and the JVM records its
    // jdk.ThreadPark all the same (threshold 0), without the wait for a CPU that a real park
    // costs on a loaded machine.
    static void parkPermitted(long seed) {
        while (hold && running) {
            LockSupport.parkNanos(10_000_000);
        }
        LockSupport.unpark(Thread.currentThread());
        LockSupport.parkNanos(5_000);
        permittedParks.increment();
    }

    // The permitted parkers wait while the recorder thread is behind: it alone writes the
    // threads' buffers to disk, and on a loaded machine, outnumbered, it fell behind them
    // until the JVM held 7 GB of event buffers.
    static volatile boolean hold;
    static final java.util.concurrent.atomic.LongAdder permittedParks = new java.util.concurrent.atomic.LongAdder();
    static final long PARK_EVENT_BYTES = 27;
    static final long MAX_BACKLOG = 64L << 20;

    static void sleep(long seed) {
        try {
            Thread.sleep(0, 5_000);
        } catch (InterruptedException e) {
            running = false;
        }
    }

    static void contend(long seed) {
        synchronized (lock) {
            compute(seed);
        }
    }

    static final class Worker extends Thread {
        final int stackVariety;
        final Leaf leaf;

        Worker(String name, int stackVariety, Leaf leaf) {
            super(name);
            this.stackVariety = stackVariety;
            this.leaf = leaf;
        }

        @Override
        public void run() {
            long n = 0;
            while (running) {
                long seed = (n++ * 2654435761L) % stackVariety;
                call(seed, 4 + (int) (seed % 25), leaf);
            }
        }
    }

    static Thread start(String name, int stackVariety, int kind) {
        Thread t = new Worker(name, stackVariety, new Leaf(kind));
        t.start();
        return t;
    }

    // The size the running recording has written so far: its chunks in the repository (the
    // chunk being written counts from its first flush, about once a second).
    static long recordedBytes() throws Exception {
        long size = 0;
        String repository = System.getProperty("jdk.jfr.repository");
        if (repository != null) {
            try (var files = java.nio.file.Files.list(java.nio.file.Path.of(repository))) {
                var it = files.iterator();
                while (it.hasNext()) {
                    var f = it.next();
                    if (f.toString().endsWith(".jfr")) size += java.nio.file.Files.size(f);
                }
            }
        }
        return size;
    }

    // ProfileBench MAX_MILLIS [TARGET_BYTES]: runs until the recording has written TARGET_BYTES
    // (0: runs MAX_MILLIS), at most MAX_MILLIS, and says on stdout which came first:
    // "reached|cap BYTES MILLIS".
    // The recording's bytes are mostly jdk.ThreadPark events (27 bytes each). A parker waits
    // for a CPU after each real 5 us park, so on a loaded machine (load 30-90 on 2 CPUs) the
    // 6 real parkers wrote 0.2 MB/s, and 128 of them starved the JVM's recorder thread (its
    // buffers grew to gigabytes); the permitted parkers park without waiting and keep the
    // rate up with the CPU the JVM gets.
    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[0]);
        long target = args.length > 1 ? Long.parseLong(args[1]) : 0;
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) threads.add(start("compute-".concat(Integer.toString(i)), 5000, COMPUTE));
        for (int i = 0; i < 2; i++) threads.add(start("alloc-".concat(Integer.toString(i)), 2000, ALLOCATE));
        for (int i = 0; i < 6; i++) threads.add(start("park-".concat(Integer.toString(i)), 3000, PARK));
        for (int i = 0; i < 4; i++) threads.add(start("permitted-".concat(Integer.toString(i)), 3000, PARK_PERMITTED));
        for (int i = 0; i < 2; i++) threads.add(start("sleep-".concat(Integer.toString(i)), 500, SLEEP));
        for (int i = 0; i < 3; i++) threads.add(start("contend-".concat(Integer.toString(i)), 500, CONTEND));
        long t0 = System.nanoTime();
        long elapsed = 0, size = 0;
        boolean reached = false;
        while (elapsed < millis) {
            Thread.sleep(Math.min(200, millis - elapsed));
            elapsed = (System.nanoTime() - t0) / 1_000_000;
            size = recordedBytes();
            // Written so far against what the permitted parks alone made (an underestimate of
            // what was made: the other events come on top).
            hold = permittedParks.sum() * PARK_EVENT_BYTES - size > MAX_BACKLOG;
            if (target > 0 && size >= target) {
                reached = true;
                break;
            }
        }
        running = false;
        for (Thread t : threads) t.join();
        System.out.println((reached ? "reached " : "cap ") + size + " " + elapsed);
    }
}
