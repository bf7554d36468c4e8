package pi.host.core.internal.execute;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import pi.host.core.internal.json.StreamedJson;

/**
 * The params of the {@code tool.completed} every call ends with (PROTOCOL.md): written field by field
 * into each client's notification, with no tree made for it.
 */
record ToolCompleted(String sessionId, String toolCallId, boolean ok, String errorCode) implements StreamedJson {

    @Override
    public void writeJson(JsonGenerator out) throws IOException {
        out.writeStartObject();
        out.writeStringField("sessionId", sessionId);
        out.writeStringField("toolCallId", toolCallId);
        out.writeBooleanField("ok", ok);
        out.writeStringField("errorCode", errorCode);
        out.writeEndObject();
    }
}
