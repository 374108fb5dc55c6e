// Workloads with one known cause of lost time each, for tests/report: the report must name it.
package causes;

import java.io.File;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

public final class Causes {
    static volatile long sink;

    /** The contended monitor: its class name is what the report must cite. */
    static final class Account {
        long balance;

        synchronized void deposit(long amount) {
            // Held 20 ms: waiters then spend their time parked on the monitor. With short holds
            // (2 ms) every hand-off had HotSpot's waiters spin, runnable on 2 CPUs, before
            // blocking, and that CPU contention among the tellers came close to the monitor's.
            long end = System.nanoTime() + 20_000_000;
            while (System.nanoTime() < end) {
                balance += amount;
            }
        }
    }

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

    static void inline(Runnable body) {
        body.run();
    }

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        long seconds = Long.parseLong(args[1]);
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        switch (kind) {
            case "lock": {
                Account account = new Account();
                Runnable teller = () -> {
                    while (System.nanoTime() < deadline) {
                        account.deposit(1);
                    }
                };
                for (int i = 1; i < 4; i++) {
                    threads.add(start("teller-" + i, teller));
                }
                // The main thread is a teller too, rather than a thread that only waits.
                teller.run();
                break;
            }
            case "cpu": {
                int n = Runtime.getRuntime().availableProcessors() * 4;
                for (int i = 0; i < n; i++) {
                    threads.add(start("spinner-" + i, () -> {
                        while (System.nanoTime() < deadline) {
                            sink += spin(1_000_000);
                        }
                    }));
                }
                break;
            }
            case "gc": {
                // A live set close to the heap limit, replaced piece by piece: collections galore.
                // On the main thread, so that no thread merely waits for the one that works.
                inline(() -> {
                    Object[] live = new Object[20_000];
                    int i = 0;
                    while (System.nanoTime() < deadline) {
                        live[i++ % live.length] = new long[128];
                        for (int k = 0; k < 8; k++) {
                            sink += new byte[4096].length;
                        }
                    }
                });
                break;
            }
            case "park": {
                BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(16);
                for (int i = 0; i < 3; i++) {
                    threads.add(start("consumer-" + i, () -> {
                        try {
                            // poll, not take: a consumer must notice the deadline once the
                            // producer has stopped.
                            while (System.nanoTime() < deadline) {
                                Integer item = queue.poll(100, TimeUnit.MILLISECONDS);
                                if (item != null) {
                                    sink += item;
                                }
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }));
                }
                threads.add(start("producer", () -> {
                    try {
                        while (System.nanoTime() < deadline) {
                            Thread.sleep(50);
                            queue.put(1);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
                break;
            }
            case "sleep": {
                for (int i = 0; i < 3; i++) {
                    threads.add(start("napper-" + i, () -> {
                        try {
                            while (System.nanoTime() < deadline) {
                                Thread.sleep(100);
                                spin(200_000);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }));
                }
                break;
            }
            case "io": {
                File file = new File(args[2]);
                inline(() -> {
                    byte[] block = new byte[1 << 20];
                    try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
                        while (System.nanoTime() < deadline) {
                            raf.seek(0);
                            raf.write(block);
                            raf.getChannel().force(true);
                            raf.seek(0);
                            raf.readFully(block);
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                break;
            }
            default:
                throw new IllegalArgumentException(kind);
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
