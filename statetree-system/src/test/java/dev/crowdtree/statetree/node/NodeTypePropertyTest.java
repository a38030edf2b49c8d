package dev.crowdtree.statetree.node;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link NodeType.Property}: what a configured property becomes, and every misuse refused by name. */
class NodeTypePropertyTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    /** The single property {@code p} of a task type {@code t} declared by {@code declare}. */
    private static PropertySpec spec(Function<NodeType.Builder, NodeType.Builder> declare) {
        return declare.apply(NodeType.task("t")).factory(c -> null).build().properties().get("p");
    }

    @Test
    void aPropertyIsDeclaredOnce() {
        refused("is declared twice or reserved", b -> b.tag("p").string("p"));
    }

    /** Declaring property {@code p} of type {@code t} fails, naming both and saying {@code why}. */
    private static void refused(String why, Function<NodeType.Builder, NodeType.Builder> declare) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> declare.apply(NodeType.task("t")).factory(c -> null).build());
        assertTrue(e.getMessage().startsWith("node type 't': property 'p' "), e.getMessage());
        assertTrue(e.getMessage().contains(why), e.getMessage() + " should say " + why);
    }

    private static void assertSpec(String expected, PropertySpec actual) {
        assertEquals(expected, actual.toString().replaceFirst("^PropertySpec\\[name=p, ", "").replaceFirst("]$", ""));
    }

    @Test
    void withoutConfigurationAPropertyIsOptionalWithoutDefaultOrRange() {
        assertSpec("kind=CONSTANT, valueType=INT, required=false, defaultValue=null, min=-Infinity, max=Infinity,"
                + " choices=[], typeFrom=null", spec(b -> b.constant("p", ValueType.INT)));
        assertSpec("kind=INPUT, valueType=null, required=false, defaultValue=null, min=-Infinity, max=Infinity,"
                + " choices=[], typeFrom=null", spec(b -> b.numberInput("p")));
        assertSpec("kind=INPUT, valueType=null, required=false, defaultValue=null, min=-Infinity, max=Infinity,"
                + " choices=[], typeFrom=q", spec(b -> b.param("q").inputLike("p", "q")));
        assertSpec("kind=CHOICE, valueType=null, required=false, defaultValue=null, min=0.0, max=0.0,"
                + " choices=[a, b], typeFrom=null", spec(b -> b.choice("p", List.of("a", "b"))));
        assertSpec("kind=TAG, valueType=null, required=true, defaultValue=null, min=0.0, max=0.0,"
                + " choices=[], typeFrom=null", spec(b -> b.tag("p", NodeType.Property::required)));
    }

    @Test
    void aDefaultIsKeptAsTheKindOfItsProperty() {
        assertEquals(2L, spec(b -> b.constant("p", ValueType.INT, p -> p.byDefault(2))).defaultValue());
        assertEquals(2L, spec(b -> b.constant("p", ValueType.INT, p -> p.byDefault(2.0))).defaultValue());
        assertEquals(1.0, spec(b -> b.input("p", ValueType.FLOAT, p -> p.byDefault(1))).defaultValue());
        assertEquals(0.5, spec(b -> b.input("p", ValueType.FLOAT, p -> p.byDefault(0.5f))).defaultValue());
        assertEquals(3L, spec(b -> b.numberConstant("p", p -> p.byDefault(3L))).defaultValue());
        assertEquals(3.0, spec(b -> b.numberConstant("p", p -> p.byDefault(3.0))).defaultValue());
        assertEquals(Boolean.TRUE, spec(b -> b.input("p", ValueType.BOOL, p -> p.byDefault(true))).defaultValue());
        assertEquals("x", spec(b -> b.string("p", p -> p.byDefault("x"))).defaultValue());
        assertEquals("b", spec(b -> b.choice("p", List.of("a", "b"), p -> p.byDefault("b"))).defaultValue());
        PropertySpec ranged = spec(b -> b.numberInput("p", p -> p.byDefault(-1).range(-1, 1)));
        assertEquals(-1L, ranged.defaultValue());
        assertEquals(-1.0, ranged.min());
        assertEquals(1.0, ranged.max());
        PropertySpec min = spec(b -> b.input("p", ValueType.FLOAT, p -> p.required().min(0)));
        assertTrue(min.required());
        assertNull(min.defaultValue());
        assertEquals(0.0, min.min());
        assertEquals(INF, min.max());
    }

    @Test
    void aRequiredPropertyHasNoDefault() {
        refused("is required and has a default", b -> b.constant("p", ValueType.INT, p -> p.required().byDefault(1)));
        refused("is required and has a default", b -> b.string("p", p -> p.byDefault("x").required()));
    }

    @Test
    void minIsNotAboveMax() {
        refused("has min 5.0 above max 1.0", b -> b.input("p", ValueType.FLOAT, p -> p.min(5).max(1)));
        refused("has min 2.0 above max 1.0", b -> b.numberConstant("p", p -> p.range(2, 1)));
        refused("has min NaN above max", b -> b.numberConstant("p", p -> p.min(Double.NaN)));
    }

    @Test
    void onlyNumbersHaveARange() {
        Consumer<NodeType.Property> ranged = p -> p.range(0, 1);
        refused("has a range but is not a number", b -> b.constant("p", ValueType.BOOL, ranged));
        refused("has a range but is not a number", b -> b.input("p", ValueType.BOOL, p -> p.max(1)));
        refused("has a range but is not a number", b -> b.string("p", p -> p.min(0)));
        refused("has a range but is not a number", b -> b.choice("p", List.of("a"), ranged));
        refused("has a range but is not a number", b -> b.tag("p", ranged));
        refused("has a range but is not a number", b -> b.param("p", ranged));
        refused("has a range but is not a number", b -> b.payload("p", ranged));
        refused("has a range but is not a number", b -> b.condition("p", ranged));
        refused("has a range but is not a number", b -> b.conditions("p", ranged));
    }

    @Test
    void aDefaultOfTheWrongKindIsRefused() {
        refused("default 1 (Integer), not a Boolean", b -> b.constant("p", ValueType.BOOL, p -> p.byDefault(1)));
        refused("default true (Boolean), not a number", b -> b.constant("p", ValueType.INT, p -> p.byDefault(true)));
        refused("default 1 (String), not a number", b -> b.input("p", ValueType.FLOAT, p -> p.byDefault("1")));
        refused("default 1 (BigDecimal), not a number", b -> b.numberInput("p", p -> p.byDefault(BigDecimal.ONE)));
        refused("default null, not a number", b -> b.numberConstant("p", p -> p.byDefault(null)));
        refused("default 1 (Integer), not a string", b -> b.string("p", p -> p.byDefault(1)));
        refused("default 1 (Long), not a string", b -> b.choice("p", List.of("1"), p -> p.byDefault(1L)));
        refused("takes no default, has default x (String)", b -> b.tag("p", p -> p.byDefault("x")));
        refused("takes no default", b -> b.param("p", p -> p.byDefault("x")));
        refused("takes no default", b -> b.payload("p", p -> p.byDefault(1)));
        refused("takes no default", b -> b.condition("p", p -> p.byDefault(true)));
        refused("takes no default", b -> b.conditions("p", p -> p.byDefault(true)));
        refused("takes no default", b -> b.param("q").inputLike("p", "q", p -> p.byDefault(1)));
    }

    @Test
    void anIntDefaultIsIntegral() {
        refused("default 1.5 (Double), not an integer", b -> b.constant("p", ValueType.INT, p -> p.byDefault(1.5)));
        refused("default NaN (Double), not an integer", b -> b.input("p", ValueType.INT, p -> p.byDefault(Double.NaN)));
        refused("default 4294967296 (Long), not an integer",
                b -> b.constant("p", ValueType.INT, p -> p.byDefault(1L << 32)));
    }

    @Test
    void aDefaultIsWithinTheRange() {
        refused("default 11 (Integer) outside its range 1.0..10.0",
                b -> b.constant("p", ValueType.INT, p -> p.range(1, 10).byDefault(11)));
        refused("default -0.5 (Double) outside its range 0.0..Infinity",
                b -> b.input("p", ValueType.FLOAT, p -> p.byDefault(-0.5).min(0)));
        refused("default NaN (Double) outside its range", b -> b.numberConstant("p", p -> p.byDefault(Double.NaN)));
    }

    @Test
    void aChoiceDefaultIsOneOfItsValues() {
        refused("default c (String), not one of [a, b]", b -> b.choice("p", List.of("a", "b"), p -> p.byDefault("c")));
        refused("has no choices", b -> b.choice("p", List.of()));
    }

    @Test
    void aValueTypeIsGivenOrTheNumberFormIsUsed() {
        refused("has no value type (for any number use numberConstant or numberInput)", b -> b.constant("p", null));
        refused("has no value type", b -> b.input("p", null, NodeType.Property::required));
    }
}
