package pi.host.plugins.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks a tool's {@code inputSchema} the way the host will compile it: a JSON Schema of draft
 * 2020-12, valid against that draft's meta-schema, with every {@code $ref} inside the schema (the
 * host never fetches one), and {@code "type": "object"} at the root.
 */
final class SchemaRules {

    static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
    private static final String META_PREFIX = "https://json-schema.org/draft/2020-12/";

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12, builder -> builder
                    .schemaRegistryConfig(SchemaRegistryConfig.builder().locale(Locale.ENGLISH).preloadSchema(false)
                            .build())
                    // only the 2020-12 meta-schemas that ship inside the validator may be loaded
                    .schemaLoader(loader -> loader.allow(iri -> iri.toString().startsWith(META_PREFIX))));

    private SchemaRules() {
    }

    /** What is wrong with {@code schema}, one sentence each; empty when the host will accept it. */
    static List<String> problems(JsonNode schema) {
        List<String> problems = new ArrayList<>();
        if (!schema.isObject()) {
            problems.add("inputSchema must be a JSON object (a JSON Schema), not " + kind(schema));
            return problems;
        }
        JsonNode dialect = schema.get("$schema");
        if (dialect != null && !(dialect.isTextual() && dialect.textValue().replaceAll("#$", "").equals(DRAFT_2020_12))) {
            problems.add("inputSchema declares $schema " + dialect + "; plugin schemas are JSON Schema draft 2020-12");
            return problems;
        }
        JsonNode type = schema.get("type");
        if (type == null || !type.isTextual() || !"object".equals(type.textValue())) {
            problems.add("inputSchema must have \"type\": \"object\" at its root (the arguments are a JSON object)");
        }
        try {
            Schema meta = REGISTRY.getSchema(SchemaLocation.of(DRAFT_2020_12));
            for (Error e : meta.validate(schema)) {
                String at = e.getInstanceLocation() == null ? "" : e.getInstanceLocation().toString();
                problems.add("inputSchema" + at.replaceFirst("^\\$", "") + " is not valid JSON Schema: " + e.getMessage());
            }
            if (problems.isEmpty()) {
                Schema compiled = REGISTRY.getSchema(schema);
                compiled.initializeValidators(); // resolves every $ref now, as the host does at registration
            }
        } catch (RuntimeException e) {
            problems.add("inputSchema cannot be compiled: " + rootMessage(e)
                    + " (a $ref must point inside the schema, e.g. #/$defs/name; nothing is fetched)");
        }
        return problems;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    private static String kind(JsonNode node) {
        return node.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
