package pi.host.core.internal.execute;

/**
 * One step of the pipeline ({@link ToolPipeline}): it checks or prepares one thing about a call and
 * either lets it go on or ends it. A step that ends the call has recorded its decision (rule, source)
 * for the audit row. The steps that judge state which can change while a call waits (session, tool,
 * mode, delegation, activation, plan actions, paths, policy) write into an {@link Evaluation}, so the
 * re-check right before execution ({@link RecheckStep}) can run them again on a fresh one.
 */
interface Step {

    /**
     * @param call the call's state
     * @param e the evaluation this run fills in: the call's first one, or the re-check's
     * @return null to go on, else the result that ends the call
     */
    ResultEnvelope apply(CallState call, Evaluation e);
}
