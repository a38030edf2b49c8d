package dev.crowdtree.statetree.arch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The methods and constructors of a Java source file, found without a parser: comments, strings,
 * text blocks and character literals are blanked, then the braces are matched. A brace opened
 * directly in a type's body opens a type (its header names {@code class}, {@code interface},
 * {@code enum} or {@code record}), a method (its header ends with {@code )}, perhaps followed by
 * {@code throws ...}) or an initializer; everything inside a method belongs to it.
 */
final class JavaMethods {
    /** A method: its name, the line of its opening brace (1-based) and its length in lines, braces included. */
    record Method(String name, int line, int lines) {
    }

    private static final Pattern TYPE = Pattern.compile("\\b(class|interface|enum|record)\\b");
    private static final Pattern METHOD = Pattern.compile("(\\w+)\\s*\\((?:[^()]|\\([^()]*\\))*\\)\\s*(?:throws\\s+[\\w.,\\s<>]+)?$");
    private static final Pattern ANNOTATION = Pattern.compile("@\\w+(\\([^)]*\\))?");

    private enum Kind { TYPE, METHOD, OTHER, INSIDE }

    private JavaMethods() {
    }

    static List<Method> of(String source) {
        String s = blank(source);
        List<Method> found = new ArrayList<>();
        Deque<Kind> kinds = new ArrayDeque<>();
        Deque<Integer> opened = new ArrayDeque<>();
        Deque<String> names = new ArrayDeque<>();
        int segment = 0;
        int line = 1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n') {
                line++;
            } else if (c == '{') {
                String header = ANNOTATION.matcher(s.substring(segment, i)).replaceAll("").strip();
                Kind top = kinds.isEmpty() ? Kind.TYPE : kinds.peek();
                Kind kind = Kind.INSIDE;
                String name = "";
                if (top == Kind.TYPE) {
                    Matcher m = METHOD.matcher(header);
                    if (TYPE.matcher(header).find()) {
                        kind = Kind.TYPE;
                    } else if (m.find()) {
                        kind = Kind.METHOD;
                        name = m.group(1);
                    } else {
                        kind = Kind.OTHER;
                    }
                }
                kinds.push(kind);
                opened.push(line);
                names.push(name);
                segment = i + 1;
            } else if (c == '}') {
                Kind kind = kinds.pop();
                int from = opened.pop();
                String name = names.pop();
                if (kind == Kind.METHOD) {
                    found.add(new Method(name, from, line - from + 1));
                }
                segment = i + 1;
            } else if (c == ';') {
                segment = i + 1;
            }
        }
        found.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return found;
    }

    /** {@code source} with comments, strings, text blocks and character literals replaced by spaces (newlines kept). */
    private static String blank(String source) {
        StringBuilder b = new StringBuilder(source.length());
        int n = source.length();
        int i = 0;
        while (i < n) {
            int end;
            if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = source.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                char q = source.charAt(i);
                end = i + 1;
                while (end < n && source.charAt(end) != q && source.charAt(end) != '\n') {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(n, end + 1);
            } else {
                b.append(source.charAt(i++));
                continue;
            }
            for (int k = i; k < end; k++) {
                b.append(source.charAt(k) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return b.toString();
    }
}
