package pi.host.core.internal.approval;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A permission card (PROTOCOL.md {@code permission.request}).
 *
 * @param preview a redacted rendering of the arguments
 * @param externalPath the canonical outside path this card is about, or null
 * @param delegate the asking delegate's name, or null for the session's own agent
 * @param annotations an MCP tool's annotations as its server declared them (shown, not trusted), or null
 * @param grantScope exactly what an allow-session answer on this card grants
 * @param description what the call will do, in one line (from the tool's prepared invocation)
 */
public record PermissionRequest(String requestId, String sessionId, String turnId, String toolCallId,
        String toolName, String risk, String reason, JsonNode preview, String externalPath,
        String delegate, JsonNode annotations, long createdAt, GrantScope.Wire grantScope, String description) {
}
