package pi.host.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import pi.host.core.rpc.RpcEndpoint;

/** The assembled bundle set starts cleanly: host.info reports every bundle ACTIVE, the host's own among them. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class HostBundlesIT {

    /** Pax Exam waits (bounded) for the service, so the test starts once the host's components are up. */
    @Inject
    private RpcEndpoint endpoint;

    @Configuration
    public Option[] config() {
        return new Option[] {HostBundles.options()};
    }

    @Test
    public void hostInfoReportsEveryBundleActive() {
        JsonNode bundles;
        try (RpcClient rpc = new RpcClient(endpoint)) {
            bundles = rpc.call("host.info").path("bundles");
        }
        assertTrue("host.info has a bundles array: " + bundles, bundles.isArray() && bundles.size() > 0);

        List<String> notActive = new ArrayList<>();
        Set<String> listed = new TreeSet<>();
        for (JsonNode bundle : bundles) {
            String name = bundle.path("symbolicName").asText();
            listed.add(name);
            // a fragment is attached to its host and stays RESOLVED
            String expected = bundle.path("fragment").asBoolean() ? "RESOLVED" : "ACTIVE";
            if (!expected.equals(bundle.path("state").asText())) {
                notActive.add(name + "=" + bundle.path("state").asText());
            }
        }
        assertEquals("bundles not ACTIVE", List.of(), notActive);

        for (String own : List.of("pi.host.api", "pi.host.core", "pi.host.tools")) {
            assertTrue(own + " is listed in " + listed, listed.contains(own));
        }
        // the whole assembly, not only our bundles: a dropped runtime dependency shows up here
        for (String assembled : HostBundles.assembledSymbolicNames()) {
            assertTrue(assembled + " (from bundles.list) is listed in " + listed, listed.contains(assembled));
        }
    }
}
