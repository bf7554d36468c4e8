package pi.host.plugins.internal;

import java.util.concurrent.atomic.AtomicInteger;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** Plugin tool classes for the lifecycle and adapter tests; each counts what happened to it. */
final class Fixtures {

    static final AtomicInteger CREATED = new AtomicInteger();
    static final AtomicInteger CALLS = new AtomicInteger();

    private Fixtures() {
    }

    /** Answers which action ran. */
    public static final class Counting implements PluginTool {
        public Counting() {
            CREATED.incrementAndGet();
        }

        @Override
        public ToolResult execute(ToolCall call) {
            CALLS.incrementAndGet();
            return ToolResult.ok("ran " + call.arguments().get("action"));
        }
    }

    /** Returns null: a malformed result. */
    public static final class ReturnsNull implements PluginTool {
        @Override
        public ToolResult execute(ToolCall call) {
            CALLS.incrementAndGet();
            return null;
        }
    }

    /** Throws from its body. */
    public static final class Throws implements PluginTool {
        @Override
        public ToolResult execute(ToolCall call) {
            CALLS.incrementAndGet();
            throw new IllegalStateException("boom");
        }
    }

    /** Cannot be created: its constructor throws. */
    public static final class BrokenConstructor implements PluginTool {
        public BrokenConstructor() {
            throw new IllegalStateException("no config");
        }

        @Override
        public ToolResult execute(ToolCall call) {
            return ToolResult.ok("never");
        }
    }

    /** Not a plugin tool at all. */
    public static final class NotATool {
    }
}
