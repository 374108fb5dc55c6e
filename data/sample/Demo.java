// The workload of the bundled sample trace (data/sample/sample.jvmtrace), recorded by
// data/sample/record-sample.sh. Each part makes one thing visible on the timeline:
//   order-N     four threads contending on one monitor, demo.Inventory: a lock hot spot;
//   churn       allocation of short- and medium-lived arrays: young and mixed collections;
//   compute-N   four spinning threads on a 2-CPU machine: runnable but waiting for a CPU;
//   reporter    sleeps between reports; dispatcher parks on a queue; auditor waits on a monitor.
package demo;

import java.util.ArrayDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

class Inventory {
  private final long[] stock = new long[1024];
  private long orders;

  // Held for a while on purpose: the hot spot the sample shows.
  synchronized void order(int item, int quantity) {
    long h = item;
    for (int i = 0; i < 20_000; i++) {
      h = h * 6364136223846793005L + 1442695040888963407L;
    }
    stock[(int) ((h >>> 1) % stock.length)] += quantity;
    orders++;
  }

  synchronized long orders() {
    return orders;
  }
}

public class Demo {
  static volatile boolean running = true;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    long millis = args.length > 0 ? Long.parseLong(args[0]) : 5000;
    Inventory inventory = new Inventory();
    LinkedBlockingQueue<Integer> queue = new LinkedBlockingQueue<>();
    Object auditLock = new Object();

    for (int n = 0; n < 4; n++) {
      final int id = n;
      start("order-" + n, () -> {
        int i = id;
        while (running) {
          inventory.order(i++, 1);
          if (i % 64 == 0) queue.offer(i);
        }
      });
    }
    start("churn", () -> {
      ArrayDeque<byte[]> window = new ArrayDeque<>();
      long total = 0;
      while (running) {
        byte[] b = new byte[256 + (int) (total % 4096)];
        total += b.length;
        window.addLast(b);
        if (window.size() > 20_000) window.removeFirst();
        if (total % 7 == 0) sink += window.peekFirst().length;
      }
    });
    for (int n = 0; n < 4; n++) {
      start("compute-" + n, () -> {
        double x = 1;
        while (running) {
          for (int i = 0; i < 100_000; i++) x = Math.sqrt(x + i);
          sink += (long) x;
        }
      });
    }
    start("reporter", () -> {
      while (running) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
        sink += inventory.orders();
      }
    });
    start("dispatcher", () -> {
      while (running) {
        try {
          Integer o = queue.poll(50, TimeUnit.MILLISECONDS);
          if (o != null) sink += o;
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    start("auditor", () -> {
      while (running) {
        synchronized (auditLock) {
          try {
            auditLock.wait(200);
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    });

    Thread.sleep(millis);
    running = false;
    System.exit(0);
  }

  static void start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }
}
