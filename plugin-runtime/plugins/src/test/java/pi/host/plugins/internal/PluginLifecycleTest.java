package pi.host.plugins.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ToolProvider;
import pi.host.plugins.check.ResourceReader;
import pi.host.plugins.check.TestJar;
import pi.host.plugins.check.ToolSpec;
import pi.host.spi.GrantsUnavailableException;
import pi.host.spi.PluginHost;
import pi.host.spi.PluginInfo;

/** The extender's decisions, with a fake host, fake bundles and a registrar that records what is registered. */
class PluginLifecycleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Set<String> grants = new HashSet<>();
    private boolean storeBroken;
    private final List<String> changes = new ArrayList<>();
    private final Map<String, ToolProvider> registered = new LinkedHashMap<>();
    private final List<String> loaded = new ArrayList<>();

    private final PluginHost host = new PluginHost() {
        @Override
        public boolean granted(String pluginId, String capability) throws GrantsUnavailableException {
            if (storeBroken) {
                throw new GrantsUnavailableException("disk I/O error", null);
            }
            return grants.contains(pluginId + "/" + capability);
        }

        @Override
        public void pluginsChanged(String pluginId, long bundleId, String state) {
            changes.add(pluginId + ":" + state);
        }
    };

    private final PluginLifecycle lifecycle = new PluginLifecycle(host, (pluginId, spec, provider) -> {
        String key = spec.exposedName();
        assertThat(registered).as("registered twice: " + key).doesNotContainKey(key);
        registered.put(key, provider);
        return () -> registered.remove(key);
    });

    @BeforeEach
    void reset() {
        Fixtures.CREATED.set(0);
        Fixtures.CALLS.set(0);
    }

    /** A plugin bundle built from a descriptor; its classes come from this test's class path. */
    private PluginSource source(long bundleId, ObjectNode descriptor, String unresolved) {
        TestJar jar = TestJar.plugin().header("Bundle-SymbolicName", "org.example.b" + bundleId)
                .descriptor(descriptor.toString());
        for (com.fasterxml.jackson.databind.JsonNode t : descriptor.get("agentTools")) {
            String cls = t.get("class").asText();
            jar.entry(cls.replace('.', '/') + ".class", new byte[] {1});
        }
        return new PluginSource() {
            @Override
            public long bundleId() {
                return bundleId;
            }

            @Override
            public String symbolicName() {
                return "org.example.b" + bundleId;
            }

            @Override
            public Manifest manifest() {
                return jar.manifest();
            }

            @Override
            public ResourceReader entries() {
                return jar.reader();
            }

            @Override
            public Class<?> loadClass(String name) throws ClassNotFoundException {
                loaded.add(name);
                return Class.forName(name, false, PluginLifecycleTest.class.getClassLoader());
            }

            @Override
            public String unresolved() {
                return unresolved;
            }
        };
    }

    private PluginSource source(long bundleId, ObjectNode descriptor) {
        return source(bundleId, descriptor, null);
    }

    private static ObjectNode descriptor(String id, Class<?>... tools) {
        ObjectNode d = JSON.createObjectNode().put("id", id).put("name", "Test " + id).put("version", "1.0.0");
        ArrayNode list = d.putArray("agentTools");
        int n = 0;
        for (Class<?> type : tools) {
            ObjectNode t = list.addObject().put("name", "t" + n++).put("description", "a tool")
                    .put("class", type.getName()).put("risk", "low");
            t.putArray("actions").add("status").add("commit");
            t.putArray("planSafeActions").add("status");
            t.putObject("inputSchema").put("type", "object").putObject("properties").putObject("action")
                    .put("type", "string");
        }
        return d;
    }

    private PluginInfo only() {
        assertThat(lifecycle.list()).hasSize(1);
        return lifecycle.list().get(0);
    }

    private void grant(String id) {
        grants.add(id + "/" + PluginHost.TOOL_REGISTER);
        lifecycle.grantsChanged(id);
    }

    private void revoke(String id) {
        grants.remove(id + "/" + PluginHost.TOOL_REGISTER);
        lifecycle.grantsChanged(id);
    }

    @Test
    void aValidPluginWaitsForItsGrantWithoutLoadingAnything() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        PluginInfo info = only();
        assertThat(info.state()).isEqualTo("awaiting-grant");
        assertThat(info.granted()).isFalse();
        assertThat(info.bundleId()).isEqualTo(5);
        assertThat(info.tools()).extracting(PluginInfo.ToolInfo::exposedName).containsExactly("plugin_git_t0");
        assertThat(registered).isEmpty();
        assertThat(loaded).as("no class is loaded before the grant").isEmpty();
        assertThat(changes).containsExactly("git:awaiting-grant");
    }

    @Test
    void theGrantLoadsTheClassesAndRegistersEveryTool() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class, Fixtures.Counting.class)));
        grant("git");
        assertThat(only().state()).isEqualTo("registered");
        assertThat(only().granted()).isTrue();
        assertThat(registered).containsOnlyKeys("plugin_git_t0", "plugin_git_t1");
        assertThat(Fixtures.CREATED).hasValue(2);
        assertThat(changes).containsExactly("git:awaiting-grant", "git:registered");
    }

    @Test
    void anAlreadyGrantedPluginRegistersOnArrival() {
        grants.add("git/" + PluginHost.TOOL_REGISTER);
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        assertThat(only().state()).isEqualTo("registered");
        assertThat(registered).containsOnlyKeys("plugin_git_t0");
    }

    @Test
    void aRevokeUnregistersAtOnce() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        grant("git");
        revoke("git");
        assertThat(only().state()).isEqualTo("awaiting-grant");
        assertThat(registered).isEmpty();
        assertThat(changes).containsExactly("git:awaiting-grant", "git:registered", "git:awaiting-grant");
    }

    @Test
    void aGrantForAnotherPluginChangesNothing() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        grant("other");
        assertThat(only().state()).isEqualTo("awaiting-grant");
        assertThat(registered).isEmpty();
    }

    @Test
    void anInvalidPluginIsListedWithItsProblemsAndNeverLoaded() {
        ObjectNode d = descriptor("git", Fixtures.Counting.class);
        ((ObjectNode) d.get("agentTools").get(0)).putArray("planSafeActions").add("push");
        grants.add("git/" + PluginHost.TOOL_REGISTER);
        lifecycle.arrived(source(5, d));
        PluginInfo info = only();
        assertThat(info.state()).isEqualTo("invalid");
        assertThat(info.granted()).as("the stored grant is shown").isTrue();
        assertThat(info.problems()).extracting(PluginInfo.Problem::what).anySatisfy(w -> assertThat(w)
                .contains("plan-safe action 'push'"));
        assertThat(info.tools()).isEmpty();
        grant("git");
        assertThat(only().state()).isEqualTo("invalid");
        assertThat(registered).isEmpty();
        assertThat(loaded).isEmpty();
    }

    @Test
    void anUnresolvedBundleIsInvalid() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class), "Import-Package org.example.missing"));
        assertThat(only().state()).isEqualTo("invalid");
        assertThat(only().problems()).extracting(PluginInfo.Problem::what)
                .anySatisfy(w -> assertThat(w).contains("is not resolved"));
        assertThat(registered).isEmpty();
    }

    @Test
    void anUnreadableGrantStoreFailsClosed() {
        storeBroken = true;
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        assertThat(only().state()).isEqualTo("failed");
        assertThat(only().problems().get(0).what()).contains("cannot be read", "disk I/O error");
        assertThat(registered).isEmpty();
        assertThat(loaded).isEmpty();
    }

    @Test
    void aGrantStoreThatBreaksUnregistersARegisteredPlugin() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        grant("git");
        storeBroken = true;
        lifecycle.grantsChanged("git");
        assertThat(only().state()).isEqualTo("failed");
        assertThat(registered).isEmpty();
    }

    @Test
    void aToolClassThatIsNotAPluginToolFailsTheWholePlugin() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class, Fixtures.NotATool.class)));
        grant("git");
        assertThat(only().state()).isEqualTo("failed");
        assertThat(only().problems()).singleElement().satisfies(p -> {
            assertThat(p.where()).endsWith("agentTools[1].class");
            assertThat(p.what()).contains("does not implement pi.host.api.PluginTool");
        });
        assertThat(registered).as("all or nothing").isEmpty();
    }

    @Test
    void aToolClassThatCannotBeCreatedFailsThePlugin() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.BrokenConstructor.class)));
        grant("git");
        assertThat(only().state()).isEqualTo("failed");
        assertThat(only().problems().get(0).what()).contains("no config");
        assertThat(registered).isEmpty();
    }

    @Test
    void aToolClassThatCannotBeLoadedFailsThePlugin() {
        ObjectNode d = descriptor("git", Fixtures.Counting.class);
        ((ObjectNode) d.get("agentTools").get(0)).put("class", "org.example.Gone");
        lifecycle.arrived(source(5, d));
        grant("git");
        assertThat(only().state()).isEqualTo("failed");
        assertThat(only().problems().get(0).what()).contains("org.example.Gone", "ClassNotFoundException");
        assertThat(registered).isEmpty();
    }

    @Test
    void aFailedPluginRegistersOnceItsGrantIsRenewed() {
        storeBroken = true;
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        storeBroken = false;
        grant("git");
        assertThat(only().state()).isEqualTo("registered");
        assertThat(only().problems()).isEmpty();
    }

    @Test
    void aDepartedPluginsToolsGoAtOnce() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        grant("git");
        lifecycle.departed(5);
        assertThat(lifecycle.list()).isEmpty();
        assertThat(registered).isEmpty();
        assertThat(changes).endsWith("git:removed");
    }

    @Test
    void anUpdatedBundleReplacesItsRegistrations() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        grant("git");
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class, Fixtures.Counting.class)));
        assertThat(only().state()).isEqualTo("registered");
        assertThat(registered).containsOnlyKeys("plugin_git_t0", "plugin_git_t1");
    }

    @Test
    void aSecondBundleWithTheSameIdIsInvalidUntilTheFirstLeaves() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        lifecycle.arrived(source(6, descriptor("git", Fixtures.Counting.class)));
        assertThat(lifecycle.list()).extracting(PluginInfo::state).containsExactly("awaiting-grant", "invalid");
        assertThat(lifecycle.list().get(1).problems().get(0).what()).contains("already used by bundle 5");
        lifecycle.departed(5);
        assertThat(only().bundleId()).isEqualTo(6);
        assertThat(only().state()).isEqualTo("awaiting-grant");
    }

    @Test
    void anIdThatIsNotAllowedFallsBackToTheDeclaredIdForListing() {
        lifecycle.arrived(source(5, descriptor("Git", Fixtures.Counting.class)));
        assertThat(only().id()).isEqualTo("Git");
        assertThat(only().state()).isEqualTo("invalid");
    }

    @Test
    void closingUnregistersEverything() {
        lifecycle.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        lifecycle.arrived(source(6, descriptor("notes", Fixtures.Counting.class)));
        grant("git");
        grant("notes");
        assertThat(registered).hasSize(2);
        lifecycle.closeAll();
        assertThat(registered).isEmpty();
    }

    @Test
    void aToolWithoutDeclaredRiskIsListedAsMedium() {
        ObjectNode d = descriptor("notes", Fixtures.Counting.class);
        ((ObjectNode) d.get("agentTools").get(0)).remove("risk");
        lifecycle.arrived(source(5, d));
        assertThat(only().tools().get(0).risk()).isEqualTo("medium");
        assertThat(only().warnings()).extracting(PluginInfo.Problem::what)
                .anySatisfy(w -> assertThat(w).contains("runs as medium"));
    }

    /** Keeps ToolSpec in the test's imports honest: the registrar receives the descriptor's spec. */
    @Test
    void theRegistrarReceivesTheDescriptorsSpec() {
        List<ToolSpec> specs = new ArrayList<>();
        PluginLifecycle recording = new PluginLifecycle(host, (id, spec, provider) -> {
            specs.add(spec);
            return () -> { };
        });
        grants.add("git/" + PluginHost.TOOL_REGISTER);
        recording.arrived(source(5, descriptor("git", Fixtures.Counting.class)));
        assertThat(specs).singleElement().satisfies(s -> {
            assertThat(s.planSafeActions()).containsExactly("status");
            assertThat(s.risk()).isEqualTo("low");
        });
    }
}
