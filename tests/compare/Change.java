package compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The workloads of tests/compare: one program run twice with one change.
 *
 *   lock N SECONDS   N threads ("client-0" ...) take turns holding one monitor (a Ledger),
 *                    each working and sleeping a little while holding it: N - 1 of them are
 *                    blocked at any time, whatever the machine's load. The work in the
 *                    monitor is split between two methods by N (Ledger's constructor): the
 *                    CPU profiles of two N differ.
 *   gc N SECONDS     N threads ("allocator-0" ...) replace a live set of about 24 MB in all,
 *                    piece by piece: run with a large heap, then with one close to the live set.
 */
public final class Change {
    /** The contended monitor: its class name is what the comparison must cite. */
    static final class Ledger {
        long total;

        /** Steps of work done in the monitor per post, in all (about 1.5 ms): the same whatever
         * the number of threads (one holder at a time), so that each side's time running and
         * sleeping in the monitor is the same. */
        static final long WORK = 1_200_000;

        final long reconcileSteps;

        /** With more threads, less of the work is reconcile() and more is checksum(): 90 % of it
         * with 2 threads or fewer, 35 % with 6 or more, linear in between. The differential
         * profile of 2 then 6 threads has a frame that shrank (reconcile) and one that grew
         * (checksum), both wide in the other's flame graph whatever the few samples (about 20)
         * of a few seconds. */
        Ledger(int threads) {
            double share = Math.max(0.35, Math.min(0.9, 0.9 - 0.1375 * (threads - 2)));
            reconcileSteps = (long) (WORK * share);
        }

        synchronized void post(long amount) throws InterruptedException {
            long x = reconcile(amount, reconcileSteps);
            x = checksum(x, WORK - reconcileSteps);
            total += x & 1;
            Thread.sleep(4);
        }

        static long reconcile(long x, long steps) {
            for (long i = 0; i < steps; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            return x;
        }

        static long checksum(long x, long steps) {
            for (long i = 0; i < steps; i++) {
                x = x * 2862933555777941757L + 3037000493L;
            }
            return x;
        }
    }

    static volatile long sink;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("lock")) {
            int n = Integer.parseInt(args[1]);
            long deadline = System.nanoTime() + (long) (Double.parseDouble(args[2]) * 1e9);
            Ledger ledger = new Ledger(n);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Thread t = new Thread(() -> {
                    try {
                        long k = 0;
                        while (System.nanoTime() < deadline) {
                            ledger.post(k++);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "client-" + i);
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
            sink = ledger.total;
        } else if (mode.equals("gc")) {
            int n = Integer.parseInt(args[1]);
            long deadline = System.nanoTime() + (long) (Double.parseDouble(args[2]) * 1e9);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                Thread thread = new Thread(() -> {
                    Object[] live = new Object[24_000 / n];
                    int i = 0;
                    while (System.nanoTime() < deadline) {
                        live[i++ % live.length] = new long[128];
                        for (int k = 0; k < 4; k++) {
                            sink += new byte[2048].length;
                        }
                    }
                    sink += live.length;
                }, "allocator-" + t);
                thread.start();
                threads.add(thread);
            }
            for (Thread t : threads) {
                t.join();
            }
        } else {
            throw new IllegalArgumentException("lock N SECONDS | gc N SECONDS");
        }
    }
}
