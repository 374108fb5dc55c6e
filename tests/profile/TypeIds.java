// Prints "ID NAME" for every event type of a recording, as the JDK's RecordingFile reads them:
// jdk.ActiveSetting names the type whose setting it records by this id, which `jfr print` does
// not show.
import java.nio.file.Path;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordingFile;

public class TypeIds {
    public static void main(String[] args) throws Exception {
        try (RecordingFile f = new RecordingFile(Path.of(args[0]))) {
            for (EventType t : f.readEventTypes()) {
                System.out.println(t.getId() + " " + t.getName());
            }
        }
    }
}
