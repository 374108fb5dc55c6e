// A workload for the recorder fault tests: threads that lock, sleep and allocate; prints
// "started" once they run. With "exit" as second argument it calls System.exit(1) after the
// given milliseconds (a JVM that fails); otherwise it runs until killed.
public class Crash {
  static final Object lock = new Object();
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    long ms = Long.parseLong(args[0]);
    boolean fail = args.length > 1 && args[1].equals("exit");
    for (int i = 0; i < 3; i++) {
      Thread t = new Thread(() -> {
        while (true) {
          synchronized (lock) {
            long x = 0;
            for (int k = 0; k < 100000; k++) x += k ^ (x >>> 3);
            sink += x + new byte[64 + (int) (x & 255)].length;
          }
          try { Thread.sleep(1); } catch (InterruptedException e) { return; }
        }
      }, "worker-" + i);
      t.setDaemon(true);
      t.start();
    }
    System.out.println("started");
    System.out.flush();
    Thread.sleep(ms);
    if (fail)
      System.exit(1);
    while (true)
      Thread.sleep(1000);
  }
}
