import java.util.concurrent.locks.LockSupport;

/* Threads that alternate known sleeps, parks, contended monitor entries, waits and spins, for
 * the analysis tests: every blocking kind leaves JFR events and kernel switches. */
public class Workload {
    static final Object LOCK = new Object();
    static final Object WAITER = new Object();
    static volatile long sink;

    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) sink++;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        Thread[] threads = new Thread[3];
        for (int i = 0; i < threads.length; i++) {
            final int id = i;
            threads[i] = new Thread(() -> {
                for (int r = 0; r < rounds; r++) {
                    try {
                        Thread.sleep(2 + id);
                        LockSupport.parkNanos(1_000_000L * (1 + id));
                        synchronized (LOCK) { spin(1_500_000); }
                        synchronized (WAITER) { WAITER.wait(1); }
                        spin(500_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "worker-" + i);
            threads[i].start();
        }
        // A thread that lives in native code (reads), for native method samples.
        Thread reader = new Thread(() -> {
            byte[] buf = new byte[1 << 20];
            try (java.io.FileInputStream in = new java.io.FileInputStream("/dev/zero")) {
                while (threads[0].isAlive()) sink += in.read(buf);
            } catch (java.io.IOException e) {
                throw new RuntimeException(e);
            }
        }, "reader-0");
        reader.start();
        for (Thread t : threads) t.join();
        reader.join();
        // One collection the tests can find in both jfr print and the index.
        System.gc();
    }
}
