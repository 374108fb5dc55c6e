// A small workload for the recorder tests: contended monitor entries, parks, sleeps, waits,
// allocation and spinning. Runs for the milliseconds given (0: until killed); prints "started"
// once its threads run, so that a test knows when the JVM is live.
import java.util.concurrent.locks.LockSupport;

public class Work {
  static final Object lock = new Object();
  static final Object waitLock = new Object();
  static volatile boolean stop;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    long ms = args.length > 0 ? Long.parseLong(args[0]) : 0;
    Thread[] threads = new Thread[6];
    for (int i = 0; i < 3; i++) {
      threads[i] = new Thread(() -> {
        while (!stop) {
          synchronized (lock) {
            long x = 0;
            for (int k = 0; k < 200000; k++) x += k ^ (x >>> 3);
            sink += x + new byte[64 + (int) (x & 255)].length;
          }
          Thread.yield();
        }
      }, "locker-" + i);
    }
    threads[3] = new Thread(() -> {
      while (!stop) {
        try { Thread.sleep(5); } catch (InterruptedException e) { return; }
      }
    }, "sleeper");
    threads[4] = new Thread(() -> {
      while (!stop) LockSupport.parkNanos(2_000_000L);
    }, "parker");
    threads[5] = new Thread(() -> {
      while (!stop) {
        synchronized (waitLock) {
          try { waitLock.wait(3); } catch (InterruptedException e) { return; }
        }
      }
    }, "waiter");
    for (Thread t : threads) t.start();
    System.out.println("started");
    System.out.flush();
    if (ms > 0) {
      Thread.sleep(ms);
      stop = true;
      for (Thread t : threads) t.join();
    } else {
      for (Thread t : threads) t.join();
    }
  }
}
