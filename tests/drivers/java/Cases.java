// Runs the harness's driver of several cases in one JVM (which starts slowly): each case's
// class `Slotgen` and `Driver` are in a package of their own.
//
// Usage: java Cases (PACKAGE OUTPUT KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX)...
// writes what `PACKAGE.Driver` prints to OUTPUT.

import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.Arrays;

public final class Cases {
    private Cases() {}

    /** Arguments per case: the package, the output file and the driver's eight. */
    private static final int PER_CASE = 10;

    public static void main(String[] args) throws Exception {
        PrintStream stdout = System.out;
        for (int at = 0; at < args.length; at += PER_CASE) {
            String[] driverArgs = Arrays.copyOfRange(args, at + 2, at + PER_CASE);
            try (PrintStream out = new PrintStream(new FileOutputStream(args[at + 1]), false, "US-ASCII")) {
                System.setOut(out);
                Class.forName(args[at] + ".Driver").getMethod("main", String[].class).invoke(null, (Object) driverArgs);
            } finally {
                System.setOut(stdout);
            }
        }
    }
}
