package pi.host.it;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import pi.host.api.ToolProvider;
import pi.host.launcher.DistributionRecord;

/**
 * The build-time half of the argument check (issue 19, schema2): the host compiles a builtin's schema
 * without checking it against its dialect's meta-schema at run time ({@code SchemaValidator#compileBuiltin}),
 * because this test checks every builtin the assembled host registers, as its provider hands the schema to
 * the catalog. A builtin whose schema breaks its meta-schema fails the build here, with the problems.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class BuiltinSchemasIT {

    /** The builtins every assembly registers (others, such as JevClassify, are checked when they are there). */
    private static final Set<String> EXPECTED = Set.of("Read", "Glob", "Grep", "Write", "Edit", "Bash", "new_context",
            "ToolSearch", "asktool", "TodoWrite", "EnterPlanMode", "EnterGoalMode", "SubmitPlan", "SubmitGoal", "Task",
            "BrowserPreview", "PluginCheck", "PluginScaffold", "PluginPack");

    private static final String DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] config() {
        return new Option[] {HostBundles.options()};
    }

    /**
     * The meta-schema problems of one schema text, as the host's run-time check finds them: its
     * {@code $schema}'s meta-schema (draft 2020-12 without one), from the validator's own copies.
     */
    static List<String> metaSchemaProblems(SchemaRegistry registry, String schemaText) throws Exception {
        JsonNode node = MAPPER.readTree(schemaText);
        if (node == null || !node.isObject()) {
            return List.of("not a JSON object");
        }
        JsonNode declared = node.get("$schema");
        if (declared != null && !declared.isTextual()) {
            return List.of("$schema is not a string");
        }
        String dialect = declared == null ? DEFAULT_DIALECT : declared.textValue();
        List<String> problems = new ArrayList<>();
        for (Error e : registry.getSchema(SchemaLocation.of(dialect)).validate(node)) {
            problems.add(e.getInstanceLocation() + ": " + e.getMessage());
        }
        return problems;
    }

    private static SchemaRegistry registry() {
        // only the meta-schemas inside the validator jar: nothing is fetched
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, builder -> builder
                .schemaLoader(loader -> loader.allow(iri -> iri.toString().matches("https?://json-schema\\.org/.*"))));
    }

    /** Every ToolProvider of the distribution's bundles that is no plugin's and no MCP server's: the builtins. */
    private Map<String, String> builtinSchemas() throws Exception {
        Set<String> distribution = Set.of(((String) context.getProperty(DistributionRecord.PROPERTY)).split(" "));
        Map<String, String> out = new TreeMap<>();
        for (ServiceReference<ToolProvider> ref : context.getServiceReferences(ToolProvider.class, null)) {
            Bundle bundle = ref.getBundle();
            if (bundle == null || !distribution.contains(bundle.getLocation())
                    || ref.getProperty("pi.plugin.id") != null || ref.getProperty("pi.mcp.server") != null) {
                continue;
            }
            ToolProvider provider = context.getService(ref);
            try {
                out.put((String) ref.getProperty("pi.tool.name"), provider.inputSchema());
            } finally {
                context.ungetService(ref);
            }
        }
        return out;
    }

    @Test
    public void everyBuiltinsSchemaConformsToItsDialectsMetaSchema() throws Exception {
        await("every builtin registered").atMost(Duration.ofSeconds(30))
                .until(() -> builtinSchemas().keySet().containsAll(EXPECTED));
        Map<String, String> schemas = builtinSchemas();
        SchemaRegistry registry = registry();
        Map<String, List<String>> problems = new TreeMap<>();
        for (Map.Entry<String, String> e : schemas.entrySet()) {
            List<String> p = metaSchemaProblems(registry, e.getValue());
            if (!p.isEmpty()) {
                problems.put(e.getKey(), p);
            }
        }
        assertEquals("builtins whose schema breaks its meta-schema, of " + schemas.keySet(), Map.of(), problems);
    }

    /** The check above can fail: a schema that breaks the meta-schema has problems, a good one none. */
    @Test
    public void theCheckFindsASchemaThatBreaksItsMetaSchema() throws Exception {
        SchemaRegistry registry = registry();
        assertTrue(metaSchemaProblems(registry, "{\"type\":\"object\",\"properties\":{\"p\":{\"type\":\"string\"}}}")
                .isEmpty());
        List<String> bad = metaSchemaProblems(registry, "{\"type\":\"object\",\"properties\":{\"p\":{\"type\":\"strng\"}}}");
        assertFalse(bad.isEmpty());
        assertTrue(String.valueOf(bad), bad.get(0).startsWith("/properties/p/type: "));
        assertFalse(metaSchemaProblems(registry,
                "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"required\":\"p\"}").isEmpty());
    }
}
