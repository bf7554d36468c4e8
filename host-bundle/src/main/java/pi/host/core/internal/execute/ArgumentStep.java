package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import pi.host.api.ErrorCode;
import pi.host.core.internal.args.ArgumentAliases;
import pi.host.core.internal.args.ArgumentException;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.json.PlainValues;

/**
 * The arguments: the tool's declared aliases folded (spec §4, D273), then its JSON schema; kept as a
 * tree and as the plain values the provider sees. Arguments do not change while a call waits, so this
 * runs once.
 */
final class ArgumentStep implements Step {

    private final Catalog catalog;

    ArgumentStep(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        ObjectNode args;
        try {
            args = ArgumentAliases.fold(call.request.name(), e.tool.facts().aliases(), call.request.arguments());
        } catch (ArgumentException ex) {
            return call.fail(ErrorCode.INVALID_ARGUMENT, ex.getMessage());
        }
        List<String> problems = catalog.validate(e.tool, args);
        if (!problems.isEmpty()) {
            return call.fail(ErrorCode.INVALID_ARGUMENT, "invalid arguments for " + call.request.name() + ": "
                    + String.join("; ", problems));
        }
        call.arguments = args;
        // plain maps, lists, strings and numbers, as the mapper's treeToValue reads them, without its round trip
        call.plainArguments = PlainValues.toMap(args);
        return null;
    }
}
