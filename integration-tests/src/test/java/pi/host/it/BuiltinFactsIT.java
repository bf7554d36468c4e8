package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import pi.host.api.ToolProvider;
import pi.host.core.rpc.RpcEndpoint;

/**
 * The per-tool facts the pipeline works with (issue 13.6) come from the builtins' own declarations, as
 * the assembled bundles register them: each builtin's kind is the one the spec gives it, Read/Glob/Grep
 * are the parallel ones, the four transitions the solo ones, the path tools take their aliases; and the
 * registry accepted every builtin (none is left out for a missing or bad declaration).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class BuiltinFactsIT {

    /** name → kind, as spec §2, §10 and the mode matrix read them. */
    private static final Map<String, String> KINDS = Map.ofEntries(Map.entry("Read", "READ"),
            Map.entry("Glob", "READ"), Map.entry("Grep", "READ"), Map.entry("BrowserPreview", "PREVIEW"),
            Map.entry("Write", "EDIT"), Map.entry("Edit", "EDIT"), Map.entry("Bash", "EXEC"),
            Map.entry("new_context", "CONTROL"), Map.entry("ToolSearch", "CONTROL"), Map.entry("asktool", "CONTROL"),
            Map.entry("TodoWrite", "TODO"), Map.entry("EnterPlanMode", "ENTER_PLAN"),
            Map.entry("EnterGoalMode", "ENTER_GOAL"), Map.entry("SubmitPlan", "SUBMIT_PLAN"),
            Map.entry("SubmitGoal", "SUBMIT_GOAL"), Map.entry("Task", "TASK"),
            Map.entry("PluginCheck", "PLUGIN_TOOLING"), Map.entry("PluginScaffold", "PLUGIN_TOOLING"),
            Map.entry("PluginPack", "PLUGIN_TOOLING"));

    @Inject
    private BundleContext context;

    @Inject
    private RpcEndpoint endpoint;

    @Configuration
    public Option[] config() {
        return new Option[] {HostBundles.options()};
    }

    private Map<String, ServiceReference<ToolProvider>> builtins() throws InvalidSyntaxException {
        Map<String, ServiceReference<ToolProvider>> out = new TreeMap<>();
        for (ServiceReference<ToolProvider> ref : context.getServiceReferences(ToolProvider.class, null)) {
            Object name = ref.getProperty("pi.tool.name");
            if (KINDS.containsKey(name) && ref.getProperty("pi.plugin.id") == null) {
                out.put((String) name, ref);
            }
        }
        return out;
    }

    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        return value instanceof String[] ? Arrays.asList((String[]) value) : List.of(String.valueOf(value));
    }

    @Test
    public void everyBuiltinDeclaresTheFactsTheSpecGivesIt() throws Exception {
        await("every builtin registered").atMost(Duration.ofSeconds(30)).until(() -> builtins().size() == KINDS.size());
        Map<String, ServiceReference<ToolProvider>> refs = builtins();
        List<String> parallel = new ArrayList<>();
        List<String> solo = new ArrayList<>();
        Map<String, List<String>> aliases = new TreeMap<>();
        for (Map.Entry<String, ServiceReference<ToolProvider>> e : refs.entrySet()) {
            ServiceReference<ToolProvider> ref = e.getValue();
            assertEquals(e.getKey(), KINDS.get(e.getKey()), ref.getProperty("pi.builtin.kind"));
            if (Boolean.TRUE.equals(ref.getProperty("pi.builtin.parallel"))) {
                parallel.add(e.getKey());
            }
            if (Boolean.TRUE.equals(ref.getProperty("pi.builtin.solo"))) {
                solo.add(e.getKey());
            }
            List<String> a = strings(ref.getProperty("pi.builtin.aliases"));
            if (!a.isEmpty()) {
                aliases.put(e.getKey(), a);
            }
        }
        assertEquals(List.of("Glob", "Grep", "Read"), parallel);
        assertEquals(new TreeSet<>(List.of("EnterGoalMode", "EnterPlanMode", "SubmitGoal", "SubmitPlan")),
                new TreeSet<>(solo));
        assertEquals(Map.of("BrowserPreview", List.of("path=file_path"), "Edit", List.of("path=file_path"),
                "Glob", List.of("pattern=query"), "Grep", List.of("pattern=query"), "Read", List.of("path=file_path"),
                "Write", List.of("path=file_path")), aliases);
    }

    @Test
    public void theRegistryAcceptedEveryBuiltin() {
        try (RpcClient rpc = new RpcClient(endpoint)) {
            String session = new HostCalls(rpc).session("agent", "ask");
            JsonNode listed = rpc.call("tools.list", RpcClient.params().put("sessionId", session));
            String all = listed.toString();
            for (String name : List.of("Read", "Glob", "Grep", "Write", "Edit", "Bash", "new_context", "ToolSearch",
                    "asktool", "TodoWrite", "EnterPlanMode", "EnterGoalMode", "BrowserPreview", "PluginCheck",
                    "PluginScaffold", "PluginPack")) {
                assertTrue(name + " in " + all, all.contains("\"" + name + "\""));
            }
        }
    }
}
