package pi.host.core.internal.plan;

import java.util.Set;

/** The names of the plan/goal transition tools, each of which must be the only call in its batch. */
public final class PlanModeTools {

    /** EnterPlanMode, EnterGoalMode, SubmitPlan, SubmitGoal. */
    public static final Set<String> SOLO = Set.of("EnterPlanMode", "EnterGoalMode", "SubmitPlan", "SubmitGoal");

    private PlanModeTools() {
    }
}
