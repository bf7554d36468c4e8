package pi.host.core.internal.args;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.AbsoluteIri;
import com.networknt.schema.Error;
import com.networknt.schema.ExecutionConfig;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.FailFastAssertionException;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import pi.host.core.internal.json.ErrorText;
import pi.host.core.internal.json.Json;

/**
 * Compiles tool parameter schemas (JSON Schema, draft 2020-12 unless {@code $schema} says otherwise)
 * and validates call arguments against them.
 *
 * <p>Nothing is ever fetched: a {@code $ref} (or {@code $schema}) may only point inside the schema
 * itself or at one of the JSON Schema meta-schemas bundled in the validator; anything else makes the
 * schema invalid. A schema is checked against its dialect's meta-schema and has every reference
 * resolved when it is compiled, so a compiled schema cannot fail later for a reason of its own.
 *
 * <p>The builtins' schemas are the host's own constants: their conformance is proved at build time
 * ({@code pi.host.it.BuiltinSchemasIT} checks every builtin the assembled host registers), so
 * {@link #compileBuiltin} leaves out the run-time meta-check, whose first use (loading and compiling the
 * draft 2020-12 meta-schema and its vocabularies) was a session's first call's largest step.
 *
 * <p>Thread-safe. Compiling costs far more than validating: the caller keeps one
 * {@link CompiledSchema} per tool schema.
 */
public final class SchemaValidator {

    private static final String DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema";

    /** The meta-schemas inside the validator jar, as paths under json-schema.org: the only loadable schemas. */
    private static final Set<String> BUNDLED_META_SCHEMAS = Set.of(
            "draft/2020-12/schema",
            "draft/2020-12/meta/applicator", "draft/2020-12/meta/content", "draft/2020-12/meta/core",
            "draft/2020-12/meta/format-annotation", "draft/2020-12/meta/format-assertion",
            "draft/2020-12/meta/meta-data", "draft/2020-12/meta/unevaluated", "draft/2020-12/meta/validation",
            "draft/2019-09/schema",
            "draft/2019-09/meta/applicator", "draft/2019-09/meta/content", "draft/2019-09/meta/core",
            "draft/2019-09/meta/format", "draft/2019-09/meta/meta-data", "draft/2019-09/meta/validation",
            "draft-07/schema", "draft-06/schema", "draft-04/schema");

    /** What {@link #warmUp} compiles and validates: the builtins' most used keywords, one conforming object. */
    private static final String WARM_UP_SCHEMA = "{\"type\":\"object\",\"properties\":{"
            + "\"path\":{\"type\":\"string\",\"description\":\"a path\"},"
            + "\"mode\":{\"type\":\"string\",\"enum\":[\"a\",\"b\"]},"
            + "\"count\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":9},"
            + "\"flag\":{\"type\":\"boolean\"},"
            + "\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
            + "\"required\":[\"path\"],\"additionalProperties\":false}";
    private static final String WARM_UP_ARGUMENTS = "{\"path\":\"x\",\"mode\":\"a\",\"count\":1,\"flag\":true,"
            + "\"items\":[\"y\"]}";

    private final SchemaRegistry registry;
    /**
     * What a validation runs with: the registry's settings, annotations not collected (what the
     * validator's default output sets). Built once: {@code Schema.validate(JsonNode)} builds it twice per
     * call (for the registry's settings, then again for the output format), and a session's first calls
     * run that in the interpreter.
     */
    private final ExecutionConfig execution;
    private final AtomicInteger metaSchemaLoads = new AtomicInteger();

    public SchemaValidator() {
        SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                .locale(Locale.ENGLISH) // messages go to the model: one language, whatever the host's locale
                .preloadSchema(false) // compile() resolves references itself, and reports what fails
                .build();
        this.registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, builder -> builder
                .schemaRegistryConfig(config)
                .schemaLoader(loader -> loader.allow(this::allowLoad)));
        this.execution = ExecutionConfig.builder()
                .locale(config.getLocale())
                .formatAssertionsEnabled(config.getFormatAssertionsEnabled())
                .failFast(config.isFailFast())
                .annotationCollectionEnabled(false)
                .build();
    }

    /**
     * Parses and compiles a tool's parameter schema.
     *
     * @throws InvalidSchemaException when the text is not JSON, not a JSON object, does not conform to
     *         its dialect's meta-schema, or refers to a schema outside itself
     */
    public CompiledSchema compile(String schemaJson) throws InvalidSchemaException {
        return compile(schemaJson, true);
    }

    /**
     * Parses and compiles a builtin's parameter schema, without the run-time check against its
     * dialect's meta-schema: everything else {@link #compile} refuses is refused the same way (not JSON,
     * not an object, a reference outside the schema, a reference that does not resolve).
     *
     * <p>Only for the schemas of the tools the registry made builtins ({@code ToolOrigin.BUILTIN}, which
     * it grants by the launcher's record of the distribution's bundles, never by a name): their
     * conformance is checked at build time. A plugin's or an MCP server's schema is untrusted input and
     * goes through {@link #compile}.
     */
    public CompiledSchema compileBuiltin(String schemaJson) throws InvalidSchemaException {
        return compile(schemaJson, false);
    }

    /**
     * How many meta-schema documents this validator has loaded so far (each is loaded once, when a
     * schema is first checked against it or refers to it): zero while only builtins were compiled.
     */
    public int metaSchemaLoads() {
        return metaSchemaLoads.get();
    }

    /**
     * Parses a schema's text into the tree {@link #compileTree} and {@link #compileBuiltinTree}
     * take: a caller that also keeps the tree (the catalog lists it) parses once.
     *
     * @throws InvalidSchemaException when the text is not JSON or not a JSON object
     */
    public static JsonNode parse(String schemaJson) throws InvalidSchemaException {
        if (schemaJson == null) {
            throw new InvalidSchemaException("no schema given");
        }
        JsonNode node;
        try {
            node = Json.mapper().readTree(schemaJson);
        } catch (JsonProcessingException e) {
            throw new InvalidSchemaException("schema is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (node == null || node.isMissingNode()) {
            throw new InvalidSchemaException("schema is empty");
        }
        if (!node.isObject()) {
            throw new InvalidSchemaException("schema must be a JSON object, not "
                    + node.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        return node;
    }

    /**
     * {@link #compile(String)} of a parsed schema ({@link #parse}). The compiled schema keeps the tree:
     * the caller must not change it afterwards.
     */
    public CompiledSchema compileTree(JsonNode schema) throws InvalidSchemaException {
        return compile(schema, true);
    }

    /** {@link #compileBuiltin(String)} of a parsed schema ({@link #parse}); the tree is kept, as there. */
    public CompiledSchema compileBuiltinTree(JsonNode schema) throws InvalidSchemaException {
        return compile(schema, false);
    }

    /**
     * The validator's first use, for a warm-up after the host's first answer: compiles a small schema with
     * the keywords the builtins' schemas use most and validates a conforming object against it, so that
     * the first call's compile and validation find that code loaded, linked and initialised (a session's
     * first argument check spent 10-13 ms there, most of it first use; docs/performance-log.md, round
     * {@code grep11}). Returns the problems found, none.
     */
    public List<String> warmUp() {
        try {
            return validate(compileBuiltin(WARM_UP_SCHEMA), Json.mapper().readTree(WARM_UP_ARGUMENTS));
        } catch (InvalidSchemaException | JsonProcessingException e) {
            throw new IllegalStateException("the warm-up's own schema: " + e.getMessage(), e);
        }
    }

    private CompiledSchema compile(String schemaJson, boolean metaCheck) throws InvalidSchemaException {
        return compile(parse(schemaJson), metaCheck);
    }

    private CompiledSchema compile(JsonNode node, boolean metaCheck) throws InvalidSchemaException {
        if (node == null || !node.isObject()) {
            throw new InvalidSchemaException("schema must be a JSON object");
        }
        JsonNode declared = node.get("$schema");
        if (declared != null && !declared.isTextual()) {
            throw new InvalidSchemaException("schema/$schema must be a string (the dialect's meta-schema IRI)");
        }
        String dialect = declared == null ? DEFAULT_DIALECT : declared.textValue();
        try {
            if (metaCheck) {
                Schema meta = registry.getSchema(SchemaLocation.of(dialect));
                List<String> problems = messages("schema", meta.validate(node));
                if (!problems.isEmpty()) {
                    throw new InvalidSchemaException("schema does not conform to its meta-schema " + dialect + ": "
                            + String.join("; ", problems));
                }
            }
            Schema schema = registry.getSchema(node);
            schema.initializeValidators(); // resolves every $ref now, not at the first call
            return new CompiledSchema(schema, schema.getSchemaContext().getDialect().getId());
        } catch (RuntimeException e) {
            throw invalid(e);
        }
    }

    /**
     * Validates arguments against a compiled schema.
     *
     * @return one message per problem, each starting with the path of the offending value
     *         ({@code arguments/path: ...}, JSON Pointer after {@code arguments}); empty when valid.
     *         Bounded ({@link ErrorText#first}): the first problems, each cut, then one entry counting
     *         the rest, since each problem echoes the input (a key name, a path)
     */
    public List<String> validate(CompiledSchema schema, JsonNode arguments) {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(arguments, "arguments");
        ExecutionContext context = new ExecutionContext(execution);
        try {
            schema.schema().validate(context, arguments);
        } catch (FailFastAssertionException e) {
            context.setErrors(e.getErrors()); // as the validator's own entry point does (fail-fast is off here)
        }
        return messages("arguments", context.getErrors());
    }

    private static List<String> messages(String root, List<Error> errors) {
        if (errors.isEmpty()) {
            return List.of(); // every valid call: its first calls run this in the interpreter
        }
        List<String> messages = new ArrayList<>(errors.size());
        for (Error e : errors) {
            NodePath at = e.getInstanceLocation();
            // required, additionalProperties and the like report the object and name the property
            if (e.getProperty() != null && at != null) {
                at = at.append(e.getProperty());
            }
            messages.add(root + (at == null ? "" : at.toString()) + ": " + e.getMessage());
        }
        return ErrorText.first(messages);
    }

    private boolean allowLoad(AbsoluteIri iri) {
        String s = iri.toString();
        String path = s.startsWith("https://json-schema.org/") ? s.substring(24)
                : s.startsWith("http://json-schema.org/") ? s.substring(23) : null;
        if (path != null && path.endsWith("#")) {
            path = path.substring(0, path.length() - 1);
        }
        if (path == null || !BUNDLED_META_SCHEMAS.contains(path)) {
            throw new RefusedReference(s);
        }
        metaSchemaLoads.incrementAndGet();
        return true;
    }

    private static InvalidSchemaException invalid(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RefusedReference) {
                return new InvalidSchemaException("schema refers to " + t.getMessage() + ", which is not loaded:"
                        + " the host never fetches schemas; a $ref must point inside the schema (e.g. #/$defs/name)"
                        + " and $schema must name a standard JSON Schema dialect");
            }
        }
        String detail = e instanceof SchemaException ? e.getMessage() : e.toString();
        return new InvalidSchemaException("schema cannot be compiled: " + detail, e);
    }

    /** Thrown from the loader's allow check; the validator wraps it, compile() finds it in the causes. */
    private static final class RefusedReference extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RefusedReference(String iri) {
            super("'" + iri + "'", null, false, false);
        }
    }
}
