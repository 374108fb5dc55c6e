package compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The workloads of tests/compare: one program run twice with one change.
 *
 *   lock N SECONDS   N threads ("client-0" ...) take turns holding one monitor (a Ledger),
 *                    each working and sleeping a little while holding it: N - 1 of them are
 *                    blocked at any time, whatever the machine's load.
 *   gc N SECONDS     N threads ("allocator-0" ...) replace a live set of about 24 MB in all,
 *                    piece by piece: run with a large heap, then with one close to the live set.
 */
public final class Change {
    /** The contended monitor: its class name is what the comparison must cite. */
    static final class Ledger {
        long total;

        synchronized void post(long amount) throws InterruptedException {
            long x = amount;
            for (int i = 0; i < 20_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            total += x & 1;
            Thread.sleep(4);
        }
    }

    static volatile long sink;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("lock")) {
            int n = Integer.parseInt(args[1]);
            long deadline = System.nanoTime() + (long) (Double.parseDouble(args[2]) * 1e9);
            Ledger ledger = new Ledger();
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
