package pi.host.core.internal.json;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * A value that writes its own JSON, straight to the generator of the message it goes out in: an RPC
 * result or a notification's params the connection would otherwise turn into a tree and then walk
 * ({@code tools.execute}'s answer, {@code tool.completed}). Its text must be what the mapper writes for
 * the tree it stands for: the protocol's bytes do not change with the way they are made.
 */
@FunctionalInterface
public interface StreamedJson {

    /** Writes this value (one JSON value, no field name) to {@code out}. */
    void writeJson(JsonGenerator out) throws IOException;
}
