package pi.host.core.internal.args;

import com.networknt.schema.Schema;

/**
 * A tool's parameter schema, parsed, checked against its meta-schema and with every reference
 * resolved. Immutable and safe to share between threads; made by {@link SchemaValidator#compile}
 * and cached by the caller (one per tool schema).
 */
public final class CompiledSchema {

    private final Schema schema;
    private final String dialect;

    CompiledSchema(Schema schema, String dialect) {
        this.schema = schema;
        this.dialect = dialect;
    }

    Schema schema() {
        return schema;
    }

    /** The dialect (meta-schema IRI) the schema was compiled with: its {@code $schema}, else draft 2020-12. */
    public String dialect() {
        return dialect;
    }

    @Override
    public String toString() {
        return "CompiledSchema[" + dialect + "]";
    }
}
