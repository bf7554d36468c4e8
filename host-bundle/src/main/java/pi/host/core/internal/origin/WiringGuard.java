package pi.host.core.internal.origin;

import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.hooks.resolver.ResolverHook;
import org.osgi.framework.hooks.resolver.ResolverHookFactory;
import org.osgi.framework.namespace.BundleNamespace;
import org.osgi.framework.namespace.HostNamespace;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRequirement;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Keeps every bundle that is not the host's ({@link BundleOrigin}) from changing how the host's own
 * bundles are wired, whoever installed it: a resolver hook, so a refused wire is never made (and a
 * fragment never attaches, so its host is never refreshed). The rules:
 *
 * <ul>
 *   <li>a host bundle's requirements (imports, dynamic imports, its extenders, its fragments' hosts)
 *       are met by host bundles only, so no exported package or capability of another bundle can stand
 *       in for the distribution's;</li>
 *   <li>nothing else attaches to a host bundle or the framework (a fragment, a framework extension)
 *       or requires one with Require-Bundle (which would also bypass the host SPI's attribute);</li>
 *   <li>nothing else is wired to {@link #HOST_ONLY_PACKAGES}, whatever attributes its import states
 *       (the SPI's mandatory attribute is a declaration anyone can copy);</li>
 *   <li>a bundle that takes a host bundle's symbolic name gets no wire at all and offers none: none of
 *       its requirements is met (so it resolves only if it has none, and then nothing can use it), and
 *       a host singleton never competes with it.</li>
 * </ul>
 *
 * <p>Every rule works on the candidates of one requirement ({@code filterMatches}), never by taking a
 * bundle out of the resolvable set: Felix 7 turns any removal from that set into a whitelist of the
 * unresolved bundles and then drops every capability of an already resolved bundle (the framework's,
 * the host SPI's) from the whole resolve operation. One refused bundle left installed would then keep
 * every bundle resolved beside it from resolving: a drop-in named {@code pi.host.jev} present at start
 * kept the real Jev bundle, which starts after the plugin runtime, from starting.
 *
 * <p>Each refusal is kept ({@link #refusals()}, in {@code plugins.list}) and logged. The drop-in folder
 * already refuses all of these before a jar is installed (a host bundle's name included); this is the
 * framework-level rule for anything installed at run time by other means.
 */
@Component(service = {ResolverHookFactory.class, WiringGuard.class}, immediate = true,
        property = WiringGuard.MARKER + "=wiring")
public final class WiringGuard implements ResolverHookFactory {

    /** Service property the plugin runtime waits for before it installs any drop-in. */
    public static final String MARKER = "pi.host.guard";
    /** Packages only host bundles may be wired to. */
    public static final Set<String> HOST_ONLY_PACKAGES = Set.of("pi.host.spi");

    private static final String TAKES_NAME = "takes the symbolic name ";

    private final BundleContext context;
    private final BundleOrigin origin;
    private final Refusals refusals = new Refusals();

    @Activate
    public WiringGuard(BundleContext context, @Reference BundleOrigin origin) {
        this.context = context;
        this.origin = origin;
    }

    /** Every refusal so far, oldest first (bounded). */
    public List<Refusals.Refusal> refusals() {
        return refusals.list();
    }

    @Override
    public ResolverHook begin(Collection<BundleRevision> triggers) {
        Set<String> hostNames = new HashSet<>();
        for (Bundle b : context.getBundles()) {
            if (origin.isHost(b) && b.getSymbolicName() != null) {
                hostNames.add(b.getSymbolicName());
            }
        }
        return new Hook(hostNames);
    }

    private boolean host(BundleRevision revision) {
        return revision != null && origin.isHost(revision.getBundle());
    }

    /** One resolve operation. */
    private final class Hook implements ResolverHook {

        private final Set<String> hostNames;

        Hook(Set<String> hostNames) {
            this.hostNames = hostNames;
        }

        private boolean takesAHostName(BundleRevision r) {
            return r != null && !host(r) && r.getSymbolicName() != null && hostNames.contains(r.getSymbolicName());
        }

        @Override
        public void filterResolvable(Collection<BundleRevision> candidates) {
            // nothing to do, on purpose: see the class comment (a removal here breaks the whole resolve)
        }

        @Override
        public void filterSingletonCollisions(BundleCapability singleton, Collection<BundleCapability> collisions) {
            // a host singleton and a bundle that took its name never compete for the selection
            boolean hostSingleton = host(singleton.getRevision());
            collisions.removeIf(c -> host(c.getRevision()) != hostSingleton);
        }

        @Override
        public void filterMatches(BundleRequirement requirement, Collection<BundleCapability> candidates) {
            BundleRevision requirer = requirement.getRevision();
            if (takesAHostName(requirer)) {
                candidates.clear();
                refusals.add(requirer.getBundle(), TAKES_NAME + requirer.getSymbolicName() + " of a host bundle");
                return;
            }
            String namespace = requirement.getNamespace();
            for (Iterator<BundleCapability> it = candidates.iterator(); it.hasNext();) {
                BundleCapability c = it.next();
                BundleRevision provider = c.getRevision();
                if (takesAHostName(provider)) {
                    it.remove();
                    refusals.add(provider.getBundle(), TAKES_NAME + provider.getSymbolicName() + " of a host bundle");
                    continue;
                }
                boolean hostProvider = host(provider);
                if (host(requirer)) {
                    if (!hostProvider) {
                        it.remove();
                        refusals.add(provider.getBundle(), "offers " + describe(c) + ", which host bundle "
                                + requirer.getSymbolicName() + " requires: the host is wired only to its own bundles");
                    }
                    continue;
                }
                String why = null;
                if (hostProvider && HostNamespace.HOST_NAMESPACE.equals(namespace)) {
                    why = "is a fragment of host bundle " + provider.getSymbolicName()
                            + " (attaching it would make the framework refresh the host)";
                } else if (hostProvider && BundleNamespace.BUNDLE_NAMESPACE.equals(namespace)) {
                    why = "requires host bundle " + provider.getSymbolicName() + " (Require-Bundle)";
                } else if (hostProvider && PackageNamespace.PACKAGE_NAMESPACE.equals(namespace)) {
                    Object pkg = c.getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE);
                    if (pkg instanceof String && HOST_ONLY_PACKAGES.contains(pkg)) {
                        why = "imports " + pkg + ", which only the host's own bundles may use";
                    }
                }
                if (why != null) {
                    it.remove();
                    refusals.add(requirer.getBundle(), why);
                }
            }
        }

        @Override
        public void end() {
            // nothing held between the calls
        }
    }

    private static String describe(BundleCapability c) {
        Object name = c.getAttributes().get(c.getNamespace());
        return c.getNamespace() + (name == null ? "" : " " + name);
    }
}
