package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.util.List;
import pi.host.console.internal.ConsoleOptions;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.console.internal.input.Input;
import pi.host.console.internal.input.InputError;
import pi.host.console.internal.input.LineParser;
import pi.host.console.internal.render.Row;
import pi.host.console.internal.render.Styles;
import pi.host.console.internal.screen.PipedScreen;
import pi.host.console.internal.screen.Screen;
import pi.host.console.internal.screen.TerminalScreen;
import pi.host.core.rpc.RpcEndpoint;

/**
 * The console's read-run-show loop over one session: a line is a tool call or a slash command;
 * a line the grammar cannot read is answered with one line saying how to write it, and nothing is
 * sent. When the person leaves (Ctrl-D, {@code /quit}, end of a script) the host is shut down as
 * the desktop shuts it down ({@code host.shutdown}), which stops background tasks.
 */
public final class Console {

    private final ConsoleOptions options;
    private final RpcEndpoint endpoint;
    private volatile Screen screen;
    private volatile boolean stopping;

    public Console(ConsoleOptions options, RpcEndpoint endpoint) {
        this.options = options;
        this.endpoint = endpoint;
    }

    /** Runs until the person leaves; then stops the host. */
    public void run() {
        Router router = new Router();
        HostClient client = new HostClient(endpoint);
        client.listen(router::accept);
        int exit = 0;
        try {
            ConsoleCompleter completer = new ConsoleCompleter();
            screen = options.interactive()
                    ? TerminalScreen.open(completer, options.dataDir().resolve("console-history"), options.color())
                    : new PipedScreen(new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out));
            Context context = new Context(client, screen, createSession(client));
            router.attach(context);
            completer.attach(context);
            loop(context, router);
        } catch (HostError e) {
            exit = 1;
            say("pi-host console: the session could not be created: " + e.describe());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!stopping) {
                exit = 1;
                say("pi-host console: " + e);
                e.printStackTrace(); // to the console log (System.err in console mode)
            }
        } finally {
            System.setProperty(ConsoleOptions.EXIT_CODE, Integer.toString(exit));
            Screen s = screen;
            if (s != null) {
                s.close();
            }
            if (!stopping) {
                client.send("host.shutdown", HostClient.params());
            }
            client.close();
        }
    }

    /** The framework is stopping under the console (SIGTERM): restore the terminal, end the loop. */
    public void stop() {
        stopping = true;
        Screen s = screen;
        if (s != null) {
            s.close();
        }
    }

    private JsonNode createSession(HostClient client) throws HostError, InterruptedException {
        ObjectNode params = HostClient.params().put("projectRoot", options.workspace().toString()).put("mode", "agent");
        if (options.permissionMode() != null) {
            params.put("permissionMode", options.permissionMode());
        }
        return client.call("session.create", params);
    }

    private void loop(Context c, Router router) throws InterruptedException {
        Cards cards = new Cards(c);
        CallRunner calls = new CallRunner(c, router, cards);
        Commands commands = new Commands(c, cards);
        c.screen.print(List.of(Row.of("pi-host console: session " + c.sessionId + " on " + c.workspace, Styles.BOLD),
                Row.of(c.screen.interactive()
                        ? "Type a tool call (Read path=README.md) or /help. Tab completes; Ctrl-C stops a call; Ctrl-D leaves."
                        : "Reading tool calls and commands from stdin, one a line; a card's answer is the next line.",
                        Styles.DIM)));
        while (!stopping) {
            String line = c.screen.readLine(c.prompt());
            if (line == null || stopping) {
                return;
            }
            Input input;
            try {
                input = LineParser.parse(line);
            } catch (InputError e) {
                c.screen.print(List.of(Row.of(e.getMessage(), Styles.ERROR)));
                continue;
            }
            if (input instanceof Input.Command command) {
                if (commands.run(command) == Commands.Next.QUIT) {
                    return;
                }
            } else if (input instanceof Input.ToolCall call) {
                calls.run(call);
            }
            for (JsonNode plan = router.nextPlan(); plan != null; plan = router.nextPlan()) {
                cards.plan(plan);
            }
        }
    }

    private void say(String text) {
        Screen s = screen;
        if (s != null) {
            s.print(List.of(Row.of(text, Styles.ERROR)));
        } else {
            System.err.println(text);
        }
    }
}
