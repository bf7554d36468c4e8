package pi.host.launcher.dropin;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** The drop-in test plugin's tool: greets with the text of its bundle's {@code greeting.txt} (differs per jar version). */
public final class GreetingTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) throws IOException {
        try (InputStream in = GreetingTool.class.getResourceAsStream("/greeting.txt")) {
            return ToolResult.ok("hello " + new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
        }
    }
}
