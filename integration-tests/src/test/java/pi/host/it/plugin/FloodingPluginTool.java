package pi.host.it.plugin;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/**
 * Streams far more output than the host forwards, and returns a result far over the result bound: its
 * text, and its details (a structured result of 100,000 rows).
 */
public final class FloodingPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) {
        String chunk = "x".repeat(1024);
        for (int i = 0; i < 8192; i++) {
            call.output(ToolCall.Stream.STDOUT, chunk);
        }
        java.util.List<java.util.Map<String, Object>> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            rows.add(java.util.Map.of("row", i, "value", "v".repeat(64)));
        }
        return ToolResult.builder().text("y".repeat(4 * 1024 * 1024)).detail("total", rows.size())
                .detail("rows", rows).build();
    }
}
