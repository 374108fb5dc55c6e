// An unrelated JVM that runs beside the recorded one in the tests of process identity: two
// threads named beside-N spin on the CPUs (so they take CPU from the recorded JVM) until killed.
// Prints "started" once its threads run.
public class Beside {
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    Thread[] threads = new Thread[2];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new Thread(() -> {
        long x = 0;
        for (;;) {
          for (int k = 0; k < 1000000; k++) x += k ^ (x >>> 7);
          sink = x;
          try { Thread.sleep(1); } catch (InterruptedException e) { return; }
        }
      }, "beside-" + i);
      threads[i].start();
    }
    System.out.println("started");
    System.out.flush();
    for (Thread t : threads) t.join();
  }
}
