package pi.host.tools.internal.visualization;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.mozilla.javascript.CompilerEnvirons;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.EvaluatorException;
import org.mozilla.javascript.ast.AstNode;
import org.mozilla.javascript.ast.AstRoot;
import org.mozilla.javascript.ast.ErrorCollector;
import org.mozilla.javascript.ast.FunctionCall;
import org.mozilla.javascript.ast.Name;
import org.mozilla.javascript.ast.ParseProblem;
import org.mozilla.javascript.ast.PropertyGet;
import org.mozilla.javascript.ast.StringLiteral;
import org.mozilla.javascript.ast.TemplateCharacters;
import org.mozilla.javascript.ast.TemplateLiteral;

/**
 * The static check of a visualization fragment written with Write (spec §4b.1): every inline script is
 * compiled without running (Rhino's parser builds an AST; no {@code Context} is entered, nothing is
 * evaluated), and every literal element id passed to {@code viz.render}, {@code viz.chart},
 * {@code getElementById} or {@code querySelector("#…")} must be an {@code id} in the fragment. The
 * problems are listed so the model can fix them with one Edit. The fragment's HTML is read by jsoup.
 *
 * <p>Rhino 1.9.2 parses ES2015-level syntax; a script using what it does not know (classes,
 * {@code async}/{@code await}, modules, destructuring in {@code for…of}) is listed as not checked rather
 * than as broken.
 */
public final class StaticCheck {

    /** Script types that hold JavaScript; others ({@code application/json}, templates) are data. */
    private static final Set<String> JAVASCRIPT = Set.of("", "text/javascript", "application/javascript",
            "module", "text/ecmascript", "application/ecmascript");
    /** Syntax Rhino 1.9.2 does not parse although browsers do. */
    private static final Pattern UNSUPPORTED = Pattern.compile(
            "\\bclass\\s+[A-Za-z_$]|\\basync\\b|\\bawait\\b|(^|[;\\n])\\s*(import|export)\\b"
                    + "|\\bfor\\s*\\(\\s*(const|let|var)\\s*[\\[{]|\\bstatic\\s+#|\\?\\.\\[");
    /** The id an id selector names when the selector starts with one. */
    private static final Pattern ID_SELECTOR = Pattern.compile("^#([A-Za-z_][A-Za-z0-9_-]*)(?=$|[\\s.:>\\[+~,])");
    /** Problems listed at most (the count says how many there were). */
    static final int MAX_PROBLEMS = 20;

    private StaticCheck() {
    }

    /** The check's result: {@code scripts}, {@code problems} (strings), {@code unchecked} (strings). */
    public static Map<String, Object> check(String html) {
        Document doc = Jsoup.parse(html, "", Parser.htmlParser().setTrackPosition(true));
        Set<String> ids = new LinkedHashSet<>(doc.select("[id]").eachAttr("id"));
        List<String> problems = new ArrayList<>();
        List<String> unchecked = new ArrayList<>();
        int scripts = 0;
        for (Element script : doc.select("script")) {
            String type = script.attr("type").strip().toLowerCase(Locale.ROOT);
            if (script.hasAttr("src") || !JAVASCRIPT.contains(type)) {
                continue;
            }
            scripts++;
            int line = script.sourceRange().start().lineNumber();
            String where = "script " + scripts + " (line " + line + ")";
            checkScript(script.data(), where, line, ids, problems, unchecked);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("scripts", scripts);
        out.put("ok", problems.isEmpty());
        out.put("problemCount", problems.size());
        out.put("problems", problems.size() > MAX_PROBLEMS ? List.copyOf(problems.subList(0, MAX_PROBLEMS)) : problems);
        out.put("unchecked", unchecked);
        return out;
    }

    private static void checkScript(String code, String where, int firstLine, Set<String> ids, List<String> problems,
            List<String> unchecked) {
        CompilerEnvirons env = new CompilerEnvirons();
        env.setLanguageVersion(Context.VERSION_ECMASCRIPT);
        env.setRecordingComments(false);
        env.setIdeMode(true); // collect every error instead of stopping at the first
        env.setRecoverFromErrors(true);
        ErrorCollector errors = new ErrorCollector();
        env.setErrorReporter(errors);
        AstRoot root;
        try {
            root = new org.mozilla.javascript.Parser(env, errors).parse(code, where, 1);
        } catch (EvaluatorException | IllegalStateException e) {
            root = null;
        }
        List<ParseProblem> found = errors.getErrors().stream().filter(p -> p.getType() == ParseProblem.Type.Error)
                .toList();
        if (root == null || !found.isEmpty()) {
            Matcher m = UNSUPPORTED.matcher(code);
            if (m.find()) {
                unchecked.add(where + ": uses syntax the checker's parser (Rhino 1.9.2) does not know ('"
                        + m.group().strip() + "'); not checked");
                return;
            }
            for (ParseProblem p : found.subList(0, Math.min(5, found.size()))) {
                problems.add(where + ", line " + (firstLine + lineOf(code, p.getFileOffset()) - 1) + ": "
                        + p.getMessage());
            }
            if (root == null && found.isEmpty()) {
                problems.add(where + ": does not compile");
            }
            return;
        }
        root.visit(node -> {
            if (node instanceof FunctionCall) {
                idArgument((FunctionCall) node).ifPresent(use -> {
                    if (!ids.contains(use.id())) {
                        problems.add(where + ", line " + (firstLine + node.getLineno() - 1) + ": " + use.call()
                                + "(\"" + use.literal() + "\") names no element: there is no id=\"" + use.id()
                                + "\" in the fragment");
                    }
                });
            }
            return true;
        });
    }

    private record IdUse(String call, String literal, String id) {
    }

    /** The id a call names with a literal: viz.render/viz.chart, getElementById, querySelector("#…"). */
    private static java.util.Optional<IdUse> idArgument(FunctionCall call) {
        if (!(call.getTarget() instanceof PropertyGet) || call.getArguments().isEmpty()) {
            return java.util.Optional.empty();
        }
        PropertyGet target = (PropertyGet) call.getTarget();
        String method = target.getProperty().getIdentifier();
        String literal = literal(call.getArguments().get(0));
        if (literal == null) {
            return java.util.Optional.empty();
        }
        boolean viz = target.getTarget() instanceof Name && "viz".equals(((Name) target.getTarget()).getIdentifier());
        if (viz && (method.equals("render") || method.equals("chart"))) {
            String id = literal.startsWith("#") ? literal.substring(1) : literal;
            return java.util.Optional.of(new IdUse("viz." + method, literal, id));
        }
        if (method.equals("getElementById")) {
            return java.util.Optional.of(new IdUse(method, literal, literal));
        }
        if (method.equals("querySelector")) {
            Matcher m = ID_SELECTOR.matcher(literal);
            if (m.find()) {
                return java.util.Optional.of(new IdUse(method, literal, m.group(1)));
            }
        }
        return java.util.Optional.empty();
    }

    /** A string literal's value, or a template literal's when it has no substitutions; else null. */
    private static String literal(AstNode node) {
        if (node instanceof StringLiteral) {
            return ((StringLiteral) node).getValue();
        }
        if (node instanceof TemplateLiteral) {
            List<AstNode> parts = ((TemplateLiteral) node).getElements();
            if (parts.size() == 1 && parts.get(0) instanceof TemplateCharacters) {
                return ((TemplateCharacters) parts.get(0)).getValue();
            }
        }
        return null;
    }

    private static int lineOf(String code, int offset) {
        int line = 1;
        for (int i = 0; i < Math.min(offset, code.length()); i++) {
            if (code.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
