package pi.host.spi;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What the host offers the MCP bridge ({@code pi.host.mcp}): the {@code mcp.changed} notification, the
 * moment the host has answered its first request (servers start after it), and a question to the user
 * of a session (an MCP elicitation becomes an {@code ask.request}). The host implements it.
 */
@ProviderType
public interface McpHost {

    /** Publishes {@code mcp.changed} with every configured server. */
    void serversChanged(List<McpServerInfo> servers);

    /** Runs {@code action} once, on a thread of its own, after the host answered its first request. */
    void afterFirstAnswer(Runnable action);

    /**
     * Asks the user of {@code sessionId} the questions as one {@code ask.request} of the running call
     * {@code toolCallId} and waits for the answers (no deadline: the user answers, skips, or the call
     * is cancelled through {@code onCancel}).
     *
     * @return one answer per question (a string, a list of strings, or null for a skipped question);
     *     empty when the whole request was skipped, cancelled, or nobody can answer
     */
    Optional<List<Object>> ask(String sessionId, String turnId, String toolCallId, List<Question> questions,
            Consumer<Runnable> onCancel);

    /** One question of an {@code ask.request}, as asktool's arguments describe one. */
    record Question(String question, List<String> options, boolean multiSelect) {
        public Question {
            options = List.copyOf(options);
        }
    }
}
