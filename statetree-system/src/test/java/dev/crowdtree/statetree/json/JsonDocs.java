package dev.crowdtree.statetree.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** JSON documents as read by Jackson into maps and lists: what the hostile-input fuzzers share. */
public final class JsonDocs {
    private JsonDocs() {
    }

    /** A place in the document: a map key or a list index. */
    public record Slot(Object container, Object key) {
        public Object get() {
            return container instanceof Map ? ((Map<?, ?>) container).get(key) : ((List<?>) container).get((Integer) key);
        }

        @SuppressWarnings("unchecked")
        public void set(Object v) {
            if (container instanceof Map) {
                ((Map<Object, Object>) container).put(key, v);
            } else {
                ((List<Object>) container).set((Integer) key, v);
            }
        }
    }

    public static String corrupt(String text, SplittableRandom rnd) {
        StringBuilder sb = new StringBuilder(text);
        int n = 1 + rnd.nextInt(5);
        for (int i = 0; i < n && sb.length() > 0; i++) {
            int at = rnd.nextInt(sb.length());
            char c = rnd.nextInt(3) == 0 ? "{}[],:\"\\0e-.".charAt(rnd.nextInt(12)) : (char) rnd.nextInt(0x3000);
            switch (rnd.nextInt(3)) {
                case 0:
                    sb.setCharAt(at, c);
                    break;
                case 1:
                    sb.insert(at, c);
                    break;
                default:
                    sb.deleteCharAt(at);
            }
        }
        return sb.toString();
    }

    public static void collect(Object v, List<Slot> out) {
        if (v instanceof Map) {
            Map<String, Object> m = castMap(v);
            for (String k : m.keySet()) {
                out.add(new Slot(m, k));
                collect(m.get(k), out);
            }
        } else if (v instanceof List) {
            List<Object> l = castList(v);
            for (int i = 0; i < l.size(); i++) {
                out.add(new Slot(l, i));
                collect(l.get(i), out);
            }
        }
    }

    public static Object deepCopy(Object v) {
        if (v instanceof Map) {
            Map<String, Object> m = new LinkedHashMap<>();
            castMap(v).forEach((k, x) -> m.put(k, deepCopy(x)));
            return m;
        }
        if (v instanceof List) {
            List<Object> l = new ArrayList<>();
            for (Object x : castList(v)) {
                l.add(deepCopy(x));
            }
            return l;
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> castList(Object o) {
        return (List<Object>) o;
    }
}
