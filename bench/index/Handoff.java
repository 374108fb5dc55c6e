import java.util.concurrent.SynchronousQueue;

/* A scheduler-heavy JVM for the index benchmark: pairs of threads hand a token back and forth
 * (every hand-off is a park, an unpark and two context switches), plus a contended monitor and
 * some allocation, so that both the JFR and the kernel layers are dense. */
public class Handoff {
    static final Object LOCK = new Object();
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 10;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int pairs = 4;
        Thread[] threads = new Thread[pairs * 2 + 2];
        for (int p = 0; p < pairs; p++) {
            SynchronousQueue<Long> ping = new SynchronousQueue<>(), pong = new SynchronousQueue<>();
            threads[2 * p] = new Thread(() -> {
                try {
                    long v = 0;
                    while (System.nanoTime() < end) { ping.put(v); v = pong.take() + 1; }
                    ping.put(-1L);
                } catch (InterruptedException e) { }
            }, "ping-" + p);
            threads[2 * p + 1] = new Thread(() -> {
                try {
                    for (;;) { long v = ping.take(); if (v < 0) break; pong.put(v); }
                } catch (InterruptedException e) { }
            }, "pong-" + p);
        }
        for (int i = 0; i < 2; i++) {
            threads[pairs * 2 + i] = new Thread(() -> {
                while (System.nanoTime() < end) {
                    synchronized (LOCK) { sink += new byte[64].length; }
                    if ((sink & 1023) == 0) Thread.yield();
                }
            }, "locker-" + i);
        }
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
    }
}
