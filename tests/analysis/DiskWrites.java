import java.io.File;
import java.io.RandomAccessFile;

/* Writes a file in chunks and syncs it after each, so that the kernel issues block requests on
 * behalf of this process (test-disk.py compares them with perf script's block events). */
public class DiskWrites {
    public static void main(String[] args) throws Exception {
        File file = new File(args[0]);
        byte[] chunk = new byte[1 << 20];
        for (int i = 0; i < chunk.length; i++)
            chunk[i] = (byte) (i * 31 + 7);
        try (RandomAccessFile out = new RandomAccessFile(file, "rw")) {
            for (int round = 0; round < 24; round++) {
                out.write(chunk);
                out.getFD().sync();
                Thread.sleep(10);
            }
        }
        file.delete();
    }
}
