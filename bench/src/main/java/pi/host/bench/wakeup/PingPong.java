package pi.host.bench.wakeup;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * The smallest stdio server (bench/wakeup-pingpong.mjs runs it with java's source launcher): reads a
 * JSON-RPC request line from stdin and answers it with an empty result (the id found by hand, no JSON
 * library: the figure is the wake-ups, not the parsing). What a pi-host call costs beyond the two wake-ups every stdio
 * server pays (the reader woken by the client's line, the client woken by the answer) is measured by
 * the options, one per run:
 *   reply=direct   the reading thread writes the answer (pi-host's path for a Read)
 *   reply=handoff  the reading thread hands the line to a parked thread, which writes the answer
 *                  (one more wake-up per call: a pool hop, a future completed on another thread)
 *   beside=none    no other thread
 *   beside=tick    a thread that naps 1 ms at a time for ever (pi-host's stdio watchdog during a burst)
 *   beside=wake    a thread woken once per line and parked again at once (the audit copier's wake-up)
 *   beside=spin    a thread that never sleeps (the second vCPU kept busy)
 */
public final class PingPong {
    private static volatile byte[] handed;
    private static volatile int handedLength;
    private static volatile Thread worker;
    private static volatile Thread woken;
    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        String reply = "direct";
        String beside = "none";
        for (String a : args) {
            if (a.startsWith("reply=")) {
                reply = a.substring(6);
            } else if (a.startsWith("beside=")) {
                beside = a.substring(7);
            }
        }
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        switch (beside) {
            case "none" -> { }
            case "tick" -> daemon(() -> {
                while (true) {
                    LockSupport.parkNanos(1_000_000);
                }
            });
            case "wake" -> woken = daemon(() -> {
                while (true) {
                    LockSupport.park();
                }
            });
            case "spin" -> daemon(() -> {
                long x = 0;
                while (true) {
                    x++;
                    if ((x & 0xffffff) == 0) {
                        sink = x;
                    }
                }
            });
            default -> throw new IllegalArgumentException(beside);
        }
        if (reply.equals("handoff")) {
            worker = daemon(() -> {
                while (true) {
                    byte[] b;
                    while ((b = handed) == null) {
                        LockSupport.park();
                    }
                    int n = handedLength;
                    handed = null;
                    try {
                        out.write(b, 0, n);
                    } catch (IOException e) {
                        System.exit(0);
                    }
                }
            });
        } else if (!reply.equals("direct")) {
            throw new IllegalArgumentException(reply);
        }
        FileInputStream in = new FileInputStream(FileDescriptor.in);
        byte[] buf = new byte[65536];
        int have = 0;
        while (true) {
            int n = in.read(buf, have, buf.length - have);
            if (n < 0) {
                return;
            }
            have += n;
            int end = have;
            while (end > 0 && buf[end - 1] != '\n') {
                end--;
            }
            if (end == 0) {
                continue;
            }
            byte[] line = answer(buf, end);
            System.arraycopy(buf, end, buf, 0, have - end);
            have -= end;
            Thread w = woken;
            if (w != null) {
                LockSupport.unpark(w);
            }
            if (worker != null) {
                handedLength = line.length;
                handed = line;
                LockSupport.unpark(worker);
            } else {
                out.write(line, 0, line.length);
            }
        }
    }

    /** {"jsonrpc":"2.0","id":ID,"result":{}} for the request in buf[0, end) (a numeric id). */
    private static byte[] answer(byte[] buf, int end) {
        String request = new String(buf, 0, end, java.nio.charset.StandardCharsets.US_ASCII);
        int at = request.indexOf("\"id\":") + 5;
        int to = at;
        while (to < request.length() && Character.isDigit(request.charAt(to))) {
            to++;
        }
        return ("{\"jsonrpc\":\"2.0\",\"id\":" + request.substring(at, to) + ",\"result\":{}}\n")
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static Thread daemon(Runnable r) {
        Thread t = new Thread(r, "beside");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
