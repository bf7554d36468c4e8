package pi.host.spi;

/**
 * What a task printed: the last part of each stream (spec §5 keeps 256 KB per stream).
 *
 * @param task         the task as of this read
 * @param stdout       the kept tail of stdout
 * @param stderr       the kept tail of stderr
 * @param stdoutCut    characters of stdout no longer kept
 * @param stderrCut    characters of stderr no longer kept
 */
public record TaskOutput(TaskInfo task, String stdout, String stderr, long stdoutCut, long stderrCut) {
}
