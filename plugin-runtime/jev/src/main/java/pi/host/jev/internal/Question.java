package pi.host.jev.internal;

import java.util.List;
import java.util.Locale;

/**
 * One typed question of a JevClassify call, as the model asks it.
 *
 * @param options the choices ({@code enum}, {@code string}) or the ordered levels, lowest first ({@code number});
 *     empty for {@code boolean}
 */
record Question(String id, String text, Type type, List<String> options) {

    /** The four types the tool takes, and how each maps onto the provider's System One question types. */
    enum Type {
        /** A yes/no question: System One {@code noul}, answered with a probability; the value is p &gt;= 0.5. */
        BOOLEAN("noul"),
        /** One of a closed set of options: System One {@code choice}. */
        ENUM("choice"),
        /** A level on an ordered scale: System One {@code score}; the value is the (fractional) level index. */
        NUMBER("score"),
        /**
         * One of the given strings: System One {@code choice} too. The classifier never writes text, so a
         * string answer is always one of the options the question offers.
         */
        STRING("choice");

        final String wire;

        Type(String wire) {
            this.wire = wire;
        }

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Type parse(String word) {
            for (Type t : values()) {
                if (t.word().equals(word)) {
                    return t;
                }
            }
            return null;
        }
    }

    Question {
        options = List.copyOf(options);
    }
}
