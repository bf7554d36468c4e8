package pi.host.launcher;

/**
 * The two extender capabilities of the OSGi Service Loader Mediator, declared by the system bundle
 * although no mediator runs in the host. Rhino 1.9.2 requires both (not optionally) for the
 * {@code ServiceLoader} lookups of its RegExp, XML and properties loaders; the host uses only its
 * parser, which looks none of them up (no {@code Context} is entered; docs/decisions.md), so Rhino
 * resolves and the unmediated lookups, if any ever ran, would find nothing and fall back as Rhino does
 * outside OSGi. Before issue 19's {@code idle11} round SPI Fly provided them, with ~110 classes and a
 * weaving hook for this and for slf4j (whose provider now comes from the launcher's class path,
 * {@link ClassPathLibraries}). Drop-ins cannot require them (the validator refuses every
 * {@code Require-Capability} but {@code osgi.ee}).
 *
 * <p>Public for the in-container tests and the JMH host, which install the same bundle set without
 * the launcher and declare the same capabilities.
 */
public final class ServiceLoaderCapabilities {

    /** The value of {@code org.osgi.framework.system.capabilities.extra}. */
    public static final String SYSTEM_CAPABILITIES_EXTRA =
            "osgi.extender;osgi.extender=\"osgi.serviceloader.processor\";version:Version=\"1.0\","
            + "osgi.extender;osgi.extender=\"osgi.serviceloader.registrar\";version:Version=\"1.0\"";

    private ServiceLoaderCapabilities() {
    }
}
