package pi.host.tools.internal.file;

import java.util.concurrent.ForkJoinPool;

/**
 * The threads the in-process Glob/Grep walk and search on: one pool for all calls, so parallel calls
 * share a bound (the cores, at most 4) instead of multiplying threads. Its threads are daemons and
 * end after a minute idle; the pool is created on the first in-process walk only.
 */
final class FilePool {

    private FilePool() {
    }

    private static final class Holder {
        static final ForkJoinPool POOL = new ForkJoinPool(Math.max(1, Math.min(4,
                Runtime.getRuntime().availableProcessors())));
    }

    static ForkJoinPool get() {
        return Holder.POOL;
    }
}
