package pi.host.core.internal.git;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one way the host runs git (spec §4e): every git command the host starts goes through
 * {@link #run}. A repository is content nobody vetted (a clone, an unpacked archive, files an agent
 * wrote): its config, the files that config includes, its attributes and its hooks can name programs
 * that plain {@code git status}, {@code worktree add} or {@code merge} would run, and the host's own
 * environment can redirect git to another repository or inject configuration. So each command gets
 *
 * <ul>
 *   <li>an environment built from scratch: a few variables of the host that name the user and the
 *       locale ({@link #KEPT}), never a {@code GIT_*} variable of the host (the whole of
 *       {@code git rev-parse --local-env-vars} and every other one: {@code GIT_EXTERNAL_DIFF},
 *       {@code GIT_SSH_COMMAND}, {@code GIT_PAGER}, {@code GIT_ASKPASS}, {@code GIT_EXEC_PATH},
 *       {@code GIT_TRACE*}, ...), nor {@code PAGER}; then the host's own: no terminal prompt, no editor,
 *       no transport ({@code GIT_ALLOW_PROTOCOL=none}), and the settings;</li>
 *   <li>the command-scope settings of {@link GitSettings}: no hooks, no fsmonitor, no signature
 *       programs, no automatic maintenance, and the repository's filter and merge drivers switched off;</li>
 *   <li>{@code --no-pager}, and {@code --no-ext-diff --no-textconv} on every diff, log and show;</li>
 *   <li>stdin {@code /dev/null}, stdout and stderr pipes of its own (the JDK closes every other
 *       descriptor in the child), a timeout after which its process tree is killed.</li>
 * </ul>
 *
 * Where a repository is and whether the host may work on it is {@link GitLocation}'s question.
 */
public final class HardenedGit {

    /** Most bytes of stdout kept; past it the output is cut (no host command needs more). */
    static final int MAX_STDOUT = 16 * 1024 * 1024;
    /** Most bytes of stderr kept. */
    static final int MAX_STDERR = 64 * 1024;
    /** The default budget of one command. */
    public static final Duration TIMEOUT = Duration.ofSeconds(120);
    /** The host's variables a git command keeps: who the user is, where their own config is, the locale. */
    static final Set<String> KEPT = Set.of("PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "XDG_CONFIG_HOME", "TZ");
    /** The subcommands that can show a diff: they get {@code --no-ext-diff --no-textconv}. */
    private static final Set<String> DIFFING = Set.of("diff", "log", "show");
    /** Reads the commands' output (blocking reads: not the common pool). */
    private static final java.util.concurrent.ExecutorService PUMPS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "pi-git-output");
        t.setDaemon(true);
        return t;
    });

    private final Map<String, String> hostEnv;
    private final String git;

    /**
     * @param hostEnv the host's environment (what {@link #KEPT} is taken from)
     * @throws GitException when there is no git executable on the host's PATH
     */
    public HardenedGit(Map<String, String> hostEnv) throws GitException {
        this.hostEnv = Map.copyOf(hostEnv);
        this.git = find(hostEnv.get("PATH"));
    }

    /** The git executable every command runs (absolute). */
    public String executable() {
        return git;
    }

    /**
     * Runs {@code git <args>} in {@code dir} with the fixed settings and {@code extra} (a repository's
     * driver settings, {@link #settingsFor}), within {@code timeout}.
     *
     * @param ceiling when not null, git does not look for a repository above this directory
     * @param indexFile when not null, the index git uses instead of the repository's (a scratch index)
     */
    public GitResult run(Path dir, List<GitSettings.Setting> extra, Path ceiling, Path indexFile, Duration timeout,
            List<String> args) throws GitException {
        List<String> command = command(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> env = builder.environment();
        env.clear();
        env.putAll(environment(extra, ceiling, indexFile));
        Process p;
        try {
            p = builder.start();
        } catch (IOException e) {
            throw new GitException("git cannot be started in " + dir + ": " + e.getMessage(), e);
        }
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream(), MAX_STDERR), PUMPS);
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream(), MAX_STDOUT), PUMPS);
        boolean done;
        try {
            done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            throw new GitException("interrupted while git ran", e);
        }
        if (!done) {
            kill(p);
        }
        String stdout = new String(out.join(), StandardCharsets.UTF_8);
        String stderr = new String(err.join(), StandardCharsets.UTF_8);
        return new GitResult(done ? p.exitValue() : -1, stdout, stderr, !done);
    }

    /** {@link #run} in {@code dir} with the fixed settings and the default timeout. */
    public GitResult run(Path dir, List<GitSettings.Setting> extra, String... args) throws GitException {
        return run(dir, extra, null, null, TIMEOUT, List.of(args));
    }

    /**
     * The driver settings for the repository at {@code dir}, from its configuration listing (which
     * itself runs with the fixed settings: listing runs nothing), plus a fallback identity for the
     * host's own commits when the user configured none.
     */
    public List<GitSettings.Setting> settingsFor(Path dir, Path ceiling) throws GitException {
        GitResult listing = run(dir, List.of(), ceiling, null, TIMEOUT,
                List.of("config", "--list", "--show-scope", "--null"));
        if (!listing.ok()) {
            throw new GitException("git cannot read the configuration of " + dir + ": " + listing.reason());
        }
        List<GitSettings.Entry> entries = GitSettings.entries(listing.nulSeparated());
        List<GitSettings.Setting> settings = new ArrayList<>(GitSettings.drivers(entries, git));
        if (GitSettings.value(entries, "user.name") == null) {
            settings.add(new GitSettings.Setting("user.name", "pi-host"));
        }
        if (GitSettings.value(entries, "user.email") == null) {
            settings.add(new GitSettings.Setting("user.email", "pi-host@localhost"));
        }
        return settings;
    }

    /**
     * Binds to the repository at {@code dir}: its configuration is listed once ({@link #settingsFor}) and
     * every command of the operation then runs with those driver settings.
     *
     * @param ceiling when not null, git does not look for a repository above this directory
     */
    public Bound bind(Path dir, Path ceiling) throws GitException {
        return new Bound(dir, ceiling, settingsFor(dir, ceiling));
    }

    /** git bound to one repository folder for one operation (a few commands in a row). */
    public final class Bound {

        private final Path dir;
        private final Path ceiling;
        private final List<GitSettings.Setting> settings;

        private Bound(Path dir, Path ceiling, List<GitSettings.Setting> settings) {
            this.dir = dir;
            this.ceiling = ceiling;
            this.settings = settings;
        }

        public Path dir() {
            return dir;
        }

        public GitResult run(String... args) throws GitException {
            return HardenedGit.this.run(dir, settings, ceiling, null, TIMEOUT, List.of(args));
        }

        public GitResult run(Duration timeout, List<String> args) throws GitException {
            return HardenedGit.this.run(dir, settings, ceiling, null, timeout, args);
        }

        /** A command on a scratch index of the host's instead of the repository's own. */
        public GitResult withIndex(Path index, String... args) throws GitException {
            return HardenedGit.this.run(dir, settings, ceiling, index, TIMEOUT, List.of(args));
        }

        /** {@link #run}, failing with git's reason when the command does not succeed. */
        public String ok(String... args) throws GitException {
            GitResult r = run(args);
            if (!r.ok()) {
                throw new GitException("git " + args[0] + " failed in " + dir + ": " + r.reason());
            }
            return r.stdout();
        }
    }

    /** The command line: git, {@code --no-pager}, the subcommand, the diff switches where it shows diffs. */
    List<String> command(List<String> args) {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("no git subcommand");
        }
        List<String> command = new ArrayList<>(args.size() + 4);
        command.add(git);
        command.add("--no-pager");
        command.add(args.get(0));
        if (DIFFING.contains(args.get(0))) {
            command.add("--no-ext-diff");
            command.add("--no-textconv");
        }
        command.addAll(args.subList(1, args.size()));
        return command;
    }

    /** The whole environment of a git command (nothing else of the host's reaches it). */
    Map<String, String> environment(List<GitSettings.Setting> extra, Path ceiling, Path indexFile) {
        Map<String, String> env = new LinkedHashMap<>();
        hostEnv.forEach((k, v) -> {
            if (KEPT.contains(k)) {
                env.put(k, v);
            }
        });
        env.put("LC_ALL", "C"); // git's messages in one language: the host reads some of them
        env.put("GIT_TERMINAL_PROMPT", "0"); // never wait for a password
        env.put("GIT_EDITOR", ":"); // git starts no editor at all for ":"
        env.put("GIT_SEQUENCE_EDITOR", ":");
        env.put("GIT_MERGE_AUTOEDIT", "no");
        // no transport: a partial clone's lazy fetch would run ssh or a remote helper; unlike
        // protocol.allow=never this beats a repository's protocol.<name>.allow=always
        env.put("GIT_ALLOW_PROTOCOL", "none");
        if (ceiling != null) {
            env.put("GIT_CEILING_DIRECTORIES", ceiling.toString());
        }
        if (indexFile != null) {
            env.put("GIT_INDEX_FILE", indexFile.toString());
        }
        List<GitSettings.Setting> settings = new ArrayList<>(GitSettings.FIXED);
        settings.addAll(extra);
        env.put("GIT_CONFIG_COUNT", Integer.toString(settings.size()));
        for (int i = 0; i < settings.size(); i++) {
            env.put("GIT_CONFIG_KEY_" + i, settings.get(i).key());
            env.put("GIT_CONFIG_VALUE_" + i, settings.get(i).value());
        }
        return env;
    }

    private static byte[] drain(InputStream in, int max) {
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                int room = max - kept.size();
                if (room > 0) {
                    kept.write(buffer, 0, Math.min(room, n));
                }
            }
        } catch (IOException e) {
            // the process is gone: what was read is what there is
        }
        return kept.toByteArray();
    }

    /**
     * The process first, then the descendants it had (listed before: once it is gone they are no longer its
     * descendants and would keep the pipes open). Killed after its children, a parent that waits for one (a
     * shell, git, Maven) could run its next step between the kills (docs/security.md, "Stopping a process tree").
     */
    private static void kill(Process p) {
        List<ProcessHandle> below = p.descendants().toList();
        p.destroyForcibly();
        below.forEach(ProcessHandle::destroyForcibly);
    }

    /** The first executable {@code git} on {@code path}. */
    static String find(String path) throws GitException {
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue; // an empty entry means the working directory: never taken
                }
                Path candidate = Path.of(dir, "git");
                if (candidate.isAbsolute() && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        throw new GitException("git is not installed (no git on the host's PATH " + path + ")");
    }

    @Override
    public String toString() {
        return "HardenedGit[" + git + "]";
    }
}
