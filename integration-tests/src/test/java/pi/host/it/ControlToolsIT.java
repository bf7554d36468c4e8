package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import pi.host.core.rpc.RpcEndpoint;

/** The interactive control tool asktool through the one pipeline, in every mode. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ControlToolsIT {

    @Inject
    private RpcEndpoint endpoint;

    private RpcClient rpc;

    @Configuration
    public Option[] config() {
        return new Option[] {HostBundles.options()};
    }

    @Before
    public void connect() {
        rpc = new RpcClient(endpoint);
    }

    @After
    public void disconnect() {
        rpc.close();
    }

    private String session(String mode) throws IOException {
        return rpc.call("session.create", RpcClient.params()
                .put("projectRoot", Files.createTempDirectory("proj").toString()).put("mode", mode))
                .get("sessionId").asText();
    }

    private int ask(String session, String callId) {
        ObjectNode p = RpcClient.params().put("sessionId", session).put("turnId", "t1").put("toolCallId", callId)
                .put("name", "asktool");
        ObjectNode q = p.putObject("arguments").putArray("questions").addObject().put("question", "Ship it?");
        q.putArray("options").add("yes").addObject().put("label", "no").put("description", "not yet");
        return rpc.send("tools.execute", p);
    }

    @Test
    public void asktoolWaitsForTheAnswerWithoutACardInPlanToo() throws IOException {
        for (String mode : new String[] {"agent", "plan"}) {
            String s = session(mode);
            int pending = ask(s, "q-" + mode);
            JsonNode request = rpc.awaitNotification("ask.request", "for q-" + mode,
                    r -> ("q-" + mode).equals(r.path("toolCallId").asText()));
            assertEquals("Ship it?", request.get("questions").get(0).get("question").asText());
            ObjectNode resolve = RpcClient.params().put("requestId", request.get("requestId").asText());
            resolve.putArray("answers").add("no");
            rpc.call("asks.resolve", resolve);
            JsonNode result = rpc.response(pending);
            assertTrue(result.get("ok").asBoolean());
            assertEquals("no", result.get("details").get("answers").get(0).asText());
            assertTrue(rpc.notifications("permission.request").isEmpty());
        }
    }

    @Test
    public void aStopResolvesAsktoolAsSkipped() throws IOException {
        String s = session("agent");
        int pending = ask(s, "q-stop");
        rpc.awaitNotification("ask.request", "for q-stop", r -> "q-stop".equals(r.path("toolCallId").asText()));
        JsonNode aborted = rpc.call("tools.abort", RpcClient.params().put("sessionId", s).put("toolCallId", "q-stop"));
        assertTrue(aborted.get("aborted").asBoolean());
        JsonNode result = rpc.response(pending);
        assertTrue(result.get("details").get("skipped").asBoolean());
        assertEquals("", result.get("details").get("answers").get(0).asText());
    }
}
