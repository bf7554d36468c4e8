package pi.host.core.internal.worktree;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;

/**
 * PI_PORT blocks (spec §4e): ten consecutive ports in 41000–48999, the first of which an isolated
 * session's commands get as {@code PI_PORT}. A block is handed out only when no other worktree holds
 * it and each of its ten ports can be bound right now (on every address: a server of someone else's
 * on any interface makes the port taken).
 */
final class PortBlocks {

    static final int FIRST = 41000;
    static final int LAST = 48999;
    static final int SIZE = 10;

    private PortBlocks() {
    }

    /**
     * The first free block not in {@code held} (their first ports), or null when none is free.
     * The caller serialises allocations (the held set must not change meanwhile).
     */
    static Integer allocate(Set<Integer> held) {
        for (int base = FIRST; base + SIZE - 1 <= LAST; base += SIZE) {
            if (!held.contains(base) && allFree(base)) {
                return base;
            }
        }
        return null;
    }

    static boolean allFree(int base) {
        for (int port = base; port < base + SIZE; port++) {
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(false);
                s.bind(new InetSocketAddress(port));
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
