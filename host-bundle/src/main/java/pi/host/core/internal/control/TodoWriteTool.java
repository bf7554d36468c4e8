package pi.host.core.internal.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;
import pi.host.core.internal.store.TodoStore;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

/**
 * {@code TodoWrite}: replaces the session's checklist. The schema validates every entry; the host
 * persists the full ordered snapshot in one transaction and announces it with {@code todo.updated}.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.TODO)
@Tool(name = "TodoWrite", risk = Risk.LOW, timeoutMs = 30_000)
public final class TodoWriteTool implements ToolProvider {

    private final TodoStore todos;
    private final HostEvents events;

    @Activate
    public TodoWriteTool(@Reference StoreComponent store, @Reference HostEvents events) {
        this.todos = new TodoStore(store.database());
        this.events = events;
    }

    @Override
    public String description() {
        return "Replace the session's checklist with the given ordered items, each pending, in_progress or"
                + " completed. Send the whole list every time.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{\"todos\":{\"type\":\"array\",\"maxItems\":100,\"items\":{"
                + "\"type\":\"object\",\"properties\":{\"content\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":500},"
                + "\"status\":{\"enum\":[\"pending\",\"in_progress\",\"completed\"]}},"
                + "\"required\":[\"content\",\"status\"],\"additionalProperties\":false}}},"
                + "\"required\":[\"todos\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        List<TodoStore.Todo> list = new ArrayList<>();
        for (Object item : (List<?>) call.arguments().get("todos")) {
            Map<?, ?> todo = (Map<?, ?>) item;
            list.add(new TodoStore.Todo((String) todo.get("content"), (String) todo.get("status")));
        }
        try {
            todos.replace(call.sessionId(), list);
        } catch (StorageException e) {
            return ToolResult.error(ErrorCode.STORAGE_ERROR, "the checklist could not be saved: " + e.getMessage());
        }
        events.publish("todo.updated", Map.of("sessionId", call.sessionId(), "todos", list));
        long done = list.stream().filter(t -> "completed".equals(t.status())).count();
        return ToolResult.builder().text("Checklist saved: " + list.size() + " items, " + done + " completed.")
                .detail("todos", list).build();
    }
}
