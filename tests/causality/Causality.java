// Workloads whose chains of cause are known, for tests/causality: the critical path, the lock
// holders' blame and the time-to-safepoint blame must explain them.
package causality;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

public final class Causality {
    static volatile long sink;

    static long spin(long nanos) {
        long end = System.nanoTime() + nanos, x = 0;
        while (System.nanoTime() < end) {
            x += x * 31 + 7;
        }
        return x;
    }

    static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The monitor the tellers share: each holds it while it computes. */
    static final class Ledger {
        long total;

        synchronized void post(long amount) {
            total += amount + spin(10_000_000);
        }
    }

    /** A counted loop C2 compiles without a safepoint poll (-XX:-UseCountedLoopSafepoints). */
    static long loop(int n) {
        long x = 1;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + i;
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        long seconds = Long.parseLong(args[1]);
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        switch (kind) {
            case "chain": {
                // A -> B -> C: each works on an item, then hands it on through a queue. A is the
                // slowest: B and C wait for A's work, and C's critical path is A's, then B's,
                // then C's own work.
                BlockingQueue<Long> ab = new ArrayBlockingQueue<>(1), bc = new ArrayBlockingQueue<>(1);
                start("chain-a", () -> {
                    try {
                        while (true) {
                            ab.put(spin(30_000_000));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                start("chain-b", () -> {
                    try {
                        while (true) {
                            long item = ab.take();
                            bc.put(item + spin(10_000_000));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                start("chain-c", () -> {
                    try {
                        while (true) {
                            sink += bc.take() + spin(3_000_000);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                break;
            }
            case "preempt": {
                // Run pinned to one CPU beside a CPU-bound process pinned to the same CPU: the
                // monitor's holders are preempted by it.
                Ledger ledger = new Ledger();
                for (int i = 0; i < 3; i++) {
                    start("teller-" + i, () -> {
                        while (System.nanoTime() < deadline) {
                            ledger.post(1);
                        }
                    });
                }
                break;
            }
            case "ttsp": {
                // One thread in long loops without a safepoint poll; another asks for a GC
                // every 100 ms: each safepoint waits for the loop to end.
                start("ttsp-looper", () -> {
                    while (System.nanoTime() < deadline) {
                        sink += loop(150_000_000);
                    }
                });
                start("ttsp-gc", () -> {
                    while (System.nanoTime() < deadline) {
                        System.gc();
                        spin(1_000_000);
                        try {
                            Thread.sleep(100);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                break;
            }
            case "idle": {
                // Another JVM on the machine while perf records a program that is none: it
                // says when it runs (its HotSpot threads are named) and then only sleeps.
                System.out.println("ready");
                System.out.flush();
                break;
            }
            default:
                throw new IllegalArgumentException(kind);
        }
        while (System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }
}
