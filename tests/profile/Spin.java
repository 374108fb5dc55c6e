// Threads that only compute, for the kernel-state split of CPU samples: with more of them than
// CPUs, each waits for a CPU part of the time; with fewer, almost never.
package profilework;

public class Spin {
    static volatile long sink;

    static long spin(long n) {
        long x = 1;
        for (long i = 0; i < n; i++) {
            x = x * 2862933555777941757L + 3037000493L;
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        long until = System.currentTimeMillis() + Long.parseLong(args[1]);
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            threads[i] = new Thread(() -> {
                while (System.currentTimeMillis() < until) {
                    sink += spin(2_000_000);
                }
            }, "spinner-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
