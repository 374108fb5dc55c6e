// The fixed workload of bench/record: two threads of hashing and moderate allocation, fewer
// threads than CPUs, little blocking, so that it measures what recording costs, not the
// scheduler. Prints the time of its work, start-up and shutdown excluded.
public class Bench {
  static volatile long sink;

  static long work(int seed, int rounds) {
    long h = seed;
    java.util.ArrayList<long[]> keep = new java.util.ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      long[] a = new long[512];
      for (int i = 0; i < a.length; i++) {
        h = h * 6364136223846793005L + 1442695040888963407L;
        a[i] = h ^ (h >>> 29);
      }
      java.util.Arrays.sort(a);
      keep.add(a);
      if (keep.size() > 2000) keep.subList(0, 1000).clear();
      h += a[r % a.length];
    }
    return h;
  }

  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[0]);
    // Warm-up, not timed: the JIT compiles the work, and JFR's own Java code, whose compilation
    // would otherwise land in the timed part of recorded runs only.
    work(1, rounds / 3);
    Thread.sleep(1500);
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long c0 = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    long t0 = System.nanoTime();
    Thread other = new Thread(() -> sink += work(2, rounds), "bench-1");
    other.start();
    sink += work(3, rounds);
    other.join();
    long wall = System.nanoTime() - t0;
    long cpu = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() - c0;
    System.out.println("work_ns " + wall + " cpu_ns " + cpu);
  }
}
