// tests/cli/Work.java's workload and an application's own JFR event: a "checkout" thread commits
// a jvmscope.test.Checkout event (begun, some work, a 10 ms sleep, committed) again and again
// until Work stops, so that records and the metric graph's markers are checked on an event type
// the JDK does not define (docs/records.md, "Events as records"). Arguments as Work's.
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

public class AppWork {
  @Name("jvmscope.test.Checkout") @Label("Checkout") @Category("Test")
  static class Checkout extends Event {
    @Label("Order") long order;
    @Label("Items") int items;
  }

  public static void main(String[] args) throws Exception {
    Thread checkout = new Thread(() -> {
      long order = 0;
      while (!Work.stop) {
        Checkout c = new Checkout();
        c.begin();
        c.order = ++order;
        c.items = (int) (order % 7) + 1;
        long x = 0;
        for (int i = 0; i < 20_000 * c.items; i++) x += i ^ (x >>> 3);
        Work.sink += x;
        try { Thread.sleep(10); } catch (InterruptedException e) { return; }
        c.commit();
      }
    }, "checkout");
    checkout.setDaemon(true);
    checkout.start();
    Work.main(args);
  }
}
