// SampledWork: threads that run, sleep and park, for a recording with only execution sampling
// on (sampling-only.jfc): the index must not call them running between their samples.
package sampled;

import java.util.concurrent.locks.LockSupport;

public class SampledWork {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[0]);
        long end = System.currentTimeMillis() + millis;
        Thread spinner = new Thread(() -> {
            while (System.currentTimeMillis() < end) {
                sink += spin(20000);
            }
        }, "spinner");
        Thread sleeper = new Thread(() -> {
            while (System.currentTimeMillis() < end) {
                sink += spin(2000);
                try { Thread.sleep(50); } catch (InterruptedException e) { return; }
            }
        }, "sleeper");
        Thread parker = new Thread(() -> {
            while (System.currentTimeMillis() < end) {
                LockSupport.parkNanos(100_000_000L);
            }
        }, "parker");
        spinner.start();
        sleeper.start();
        parker.start();
        spinner.join();
        sleeper.join();
        parker.join();
    }

    static long spin(int n) {
        long x = 0;
        for (int i = 0; i < n; i++) {
            x = x * 31 + i;
        }
        return x;
    }
}
