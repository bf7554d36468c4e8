package pi.host.core.internal.args;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.core.internal.json.Json;

class SchemaValidatorTest {

    /** A Read-like tool schema, with a nested object, an enum and no other properties allowed. */
    private static final String READ_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "path": {"type": "string", "minLength": 1},
                "offset": {"type": "integer", "minimum": 1},
                "mode": {"enum": ["text", "binary"]},
                "range": {
                  "type": "object",
                  "properties": {"start": {"type": "integer"}, "end": {"type": "integer"}},
                  "required": ["start"],
                  "additionalProperties": false
                },
                "tags": {"type": "array", "items": {"type": "string"}}
              },
              "required": ["path"],
              "additionalProperties": false
            }""";

    private final SchemaValidator validator = new SchemaValidator();

    private static JsonNode json(String text) throws Exception {
        return Json.mapper().readTree(text);
    }

    private List<String> validate(String schema, String arguments) throws Exception {
        return validator.validate(validator.compile(schema), json(arguments));
    }

    @Test
    void validArgumentsHaveNoMessages() throws Exception {
        assertThat(validate(READ_SCHEMA, """
                {"path": "src/Main.java", "offset": 3, "mode": "text", "range": {"start": 1, "end": 9}, "tags": ["a"]}"""))
                .isEmpty();
        assertThat(validate(READ_SCHEMA, "{\"path\": \"a\"}")).isEmpty();
    }

    @Test
    void missingRequiredPropertyIsNamed() throws Exception {
        assertThat(validate(READ_SCHEMA, "{\"offset\": 2}"))
                .singleElement().asString().startsWith("arguments/path: ").contains("required");
    }

    @Test
    void wrongTypeIsReportedAtItsPath() throws Exception {
        assertThat(validate(READ_SCHEMA, "{\"path\": 7}"))
                .singleElement().asString().startsWith("arguments/path: ").contains("integer").contains("string");
        assertThat(validate(READ_SCHEMA, "{\"path\": \"a\", \"offset\": 1.5}"))
                .singleElement().asString().startsWith("arguments/offset: ");
        assertThat(validate(READ_SCHEMA, "{\"path\": \"a\", \"offset\": \"3\"}"))
                .as("no type coercion").singleElement().asString().startsWith("arguments/offset: ");
    }

    @Test
    void unknownPropertiesAreRejectedWhenAdditionalPropertiesIsFalse() throws Exception {
        assertThat(validate(READ_SCHEMA, "{\"path\": \"a\", \"file_path\": \"b\"}"))
                .singleElement().asString().startsWith("arguments/file_path: ").contains("file_path");
    }

    @Test
    void enumRejectsOtherValues() throws Exception {
        assertThat(validate(READ_SCHEMA, "{\"path\": \"a\", \"mode\": \"hex\"}"))
                .singleElement().asString().startsWith("arguments/mode: ").contains("text").contains("binary");
    }

    @Test
    void nestedProblemsNameTheNestedPath() throws Exception {
        assertThat(validate(READ_SCHEMA, "{\"path\": \"a\", \"range\": {\"end\": \"x\", \"step\": 1}}"))
                .containsExactlyInAnyOrder(
                        "arguments/range/start: required property 'start' not found",
                        "arguments/range/end: string found, integer expected",
                        "arguments/range/step: property 'step' is not defined in the schema and the schema does"
                                + " not allow additional properties");
        assertThat(validate(READ_SCHEMA, "{\"path\": \"a\", \"tags\": [\"x\", 2]}"))
                .singleElement().asString().startsWith("arguments/tags/1: ");
    }

    @Test
    void everyProblemIsReported() throws Exception {
        assertThat(validate(READ_SCHEMA, "{\"path\": \"\", \"offset\": 0, \"mode\": 1}")).hasSize(3);
    }

    @Test
    void nonObjectArgumentsFailAtTheRoot() throws Exception {
        assertThat(validate(READ_SCHEMA, "[1]")).singleElement().asString().startsWith("arguments: ");
    }

    @Test
    void defaultDialectIsDraft2020_12() throws Exception {
        CompiledSchema schema = validator.compile("{\"type\": \"object\"}");
        assertThat(schema.dialect()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        // prefixItems is 2020-12 only
        assertThat(validate("{\"prefixItems\": [{\"type\": \"string\"}]}", "[1]"))
                .singleElement().asString().startsWith("arguments/0: ");
    }

    @Test
    void declaredDialectIsUsed() throws Exception {
        String draft7 = "{\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"items\": [{\"type\": \"string\"}]}";
        assertThat(validator.compile(draft7).dialect()).startsWith("http://json-schema.org/draft-07/schema");
        assertThat(validate(draft7, "[1]")).singleElement().asString().startsWith("arguments/0: ");
    }

    @Test
    void localReferencesResolve() throws Exception {
        String schema = """
                {"type": "object",
                 "properties": {"a": {"$ref": "#/$defs/name"}, "b": {"$ref": "#/$defs/name"}},
                 "$defs": {"name": {"type": "string", "pattern": "^[a-z]+$"}}}""";
        assertThat(validate(schema, "{\"a\": \"ok\", \"b\": \"NO\"}"))
                .singleElement().asString().startsWith("arguments/b: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\": ", "{\"type\": \"object\"} trailing", "{\"a\": 1, \"a\": 2}", "", "   "})
    void unparsableSchemaIsInvalid(String text) {
        assertThatThrownBy(() -> validator.compile(text)).isInstanceOf(InvalidSchemaException.class)
                .message().containsAnyOf("not valid JSON", "empty");
    }

    @Test
    void nullSchemaIsInvalid() {
        assertThatThrownBy(() -> validator.compile(null)).isInstanceOf(InvalidSchemaException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "[]", "\"object\"", "42", "null"})
    void schemaThatIsNotAnObjectIsInvalid(String text) {
        assertThatThrownBy(() -> validator.compile(text)).isInstanceOf(InvalidSchemaException.class)
                .hasMessageStartingWith("schema must be a JSON object");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"type\": \"strng\"}",
        "{\"type\": 5}",
        "{\"properties\": {\"n\": {\"minLength\": -1}}}",
        "{\"required\": \"path\"}",
        "{\"properties\": []}",
        "{\"additionalProperties\": \"no\"}",
        "{\"$schema\": 7}"
    })
    void schemaThatBreaksItsMetaSchemaIsInvalid(String text) {
        assertThatThrownBy(() -> validator.compile(text)).isInstanceOf(InvalidSchemaException.class)
                .message().startsWith("schema");
    }

    @Test
    void metaSchemaProblemsNameTheirPlaceInTheSchema() {
        assertThatThrownBy(() -> validator.compile("{\"properties\": {\"n\": {\"minLength\": -1}}}"))
                .isInstanceOf(InvalidSchemaException.class)
                .hasMessageContaining("schema/properties/n/minLength");
    }

    @Test
    void unresolvableLocalReferenceIsInvalid() {
        assertThatThrownBy(() -> validator.compile("{\"properties\": {\"a\": {\"$ref\": \"#/$defs/missing\"}}}"))
                .isInstanceOf(InvalidSchemaException.class).hasMessageContaining("/$defs/missing");
    }

    @Test
    void invalidRegularExpressionIsInvalid() {
        assertThatThrownBy(() -> validator.compile("{\"pattern\": \"[unclosed\"}"))
                .isInstanceOf(InvalidSchemaException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"$ref\": \"https://example.com/schemas/tool.json\"}",
        "{\"properties\": {\"a\": {\"$ref\": \"http://127.0.0.1:9/s.json#/x\"}}}",
        "{\"$id\": \"https://example.com/root.json\", \"properties\": {\"a\": {\"$ref\": \"other.json\"}}}",
        "{\"$ref\": \"other.json\"}",
        "{\"$ref\": \"file:///etc/passwd\"}",
        "{\"$ref\": \"classpath:jsv-messages.properties\"}",
        "{\"$ref\": \"https://json-schema.org/not/a/bundled/schema\"}",
        "{\"$schema\": \"https://example.com/my-dialect\", \"type\": \"object\"}"
    })
    void referencesOutsideTheSchemaAreRefusedWithoutFetching(String text) {
        assertThatThrownBy(() -> validator.compile(text)).isInstanceOf(InvalidSchemaException.class)
                .hasMessageContaining("never fetches");
    }

    @Test
    void bundledMetaSchemaMayBeReferenced() throws Exception {
        // a schema that validates schemas: the meta-schema is in the validator jar, nothing is fetched
        String schema = "{\"$ref\": \"https://json-schema.org/draft/2020-12/schema\"}";
        assertThat(validate(schema, "{\"type\": \"object\"}")).isEmpty();
        assertThat(validate(schema, "{\"type\": 5}")).isNotEmpty();
    }

    /** Pins issue 19 (schema2): compiling a builtin's schema loads no meta-schema; the checked compile does. */
    @Test
    void aBuiltinsSchemaCompilesWithoutLoadingAnyMetaSchema() throws Exception {
        CompiledSchema schema = validator.compileBuiltin(READ_SCHEMA);
        assertThat(validator.validate(schema, json("{\"path\": \"a\", \"offset\": 0}")))
                .singleElement().asString().startsWith("arguments/offset: ");
        assertThat(schema.dialect()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(validator.metaSchemaLoads()).isZero();

        validator.compile(READ_SCHEMA);
        assertThat(validator.metaSchemaLoads()).as("the checked compile loads the meta-schema").isPositive();
    }

    /** Pins round grep11: the validator's first use for the warm-up finds nothing wrong and loads no meta-schema. */
    @Test
    void theWarmUpsOwnObjectConformsAndLoadsNoMetaSchema() {
        assertThat(validator.warmUp()).isEmpty();
        assertThat(validator.metaSchemaLoads()).isZero();
    }

    /** Pins round grep11: a schema parsed once compiles as its text does, and the tree is the caller's to list. */
    @Test
    void aParsedSchemaCompilesAsItsText() throws Exception {
        JsonNode tree = SchemaValidator.parse(READ_SCHEMA);
        assertThat(tree).isEqualTo(json(READ_SCHEMA));
        CompiledSchema schema = validator.compileBuiltinTree(tree);
        assertThat(validator.validate(schema, json("{\"path\": \"a\", \"offset\": 0}")))
                .singleElement().asString().startsWith("arguments/offset: ");
        assertThat(validator.validate(validator.compileTree(tree), json("{\"path\": \"a\"}"))).isEmpty();
        assertThat(tree).as("compiling leaves the tree as it was").isEqualTo(json(READ_SCHEMA));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\": ", "[]", "{\"$schema\": 7}", "{\"$ref\": \"https://example.com/s.json\"}",
        "{\"$schema\": \"https://example.com/my-dialect\"}", "{\"properties\": {\"a\": {\"$ref\": \"#/$defs/missing\"}}}"})
    void aBuiltinsSchemaIsRefusedForAllButTheMetaCheck(String text) {
        assertThatThrownBy(() -> validator.compileBuiltin(text)).isInstanceOf(InvalidSchemaException.class)
                .message().startsWith("schema");
    }

    @Test
    void aBuiltinsSchemaReferringOutsideIsRefusedWithoutFetching() {
        assertThatThrownBy(() -> validator.compileBuiltin("{\"$ref\": \"file:///etc/passwd\"}"))
                .isInstanceOf(InvalidSchemaException.class).hasMessageContaining("never fetches");
    }

    @Test
    void compiledSchemaIsSharedSafelyBetweenThreads() throws Exception {
        CompiledSchema schema = validator.compile(READ_SCHEMA);
        JsonNode good = json("{\"path\": \"a\", \"range\": {\"start\": 1}}");
        JsonNode bad = json("{\"path\": 1, \"range\": {}}");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                boolean even = i % 2 == 0;
                Callable<Boolean> task = () -> even
                        ? validator.validate(schema, good).isEmpty()
                        : validator.validate(schema, bad).size() == 2;
                results.add(pool.submit(task));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Pins issue 12.7 for schemas: every unknown key was one problem of the answer, without bound. */
    @Test
    void manyProblemsAreTheFirstTenEachCutAndACountOfTheRest() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode args = Json.mapper().createObjectNode().put("path", "a");
        String longKey = "q".repeat(10_000);
        args.put(longKey, 1);
        for (int i = 0; i < 100_000; i++) {
            args.put("k" + i, "v");
        }
        List<String> problems = validator.validate(validator.compile(READ_SCHEMA), args);
        assertThat(problems).hasSize(11);
        assertThat(problems.subList(0, 10)).allMatch(p -> p.length() <= pi.host.core.internal.json.ErrorText.MAX_PROBLEM_CHARS);
        assertThat(problems.get(0)).startsWith("arguments/qqq").endsWith("characters, cut]");
        assertThat(problems.get(10)).isEqualTo("and 99991 more problems");
    }
}
