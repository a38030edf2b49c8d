package dev.crowdtree.demo.cluster;

import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.demo.model.Models;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.ModelSim;
import dev.crowdtree.statetree.model.ModelException;

import java.util.ArrayList;
import java.util.List;

/**
 * The models a cluster member can run: the built-in ones (the crowd, the plain model) and those its
 * command line loaded ({@code member --model PATH --nodes PATH}); in one JVM ({@code --local-members})
 * the driver's. A run names its model by name and fingerprint ({@link RunSpec}); a member refuses a
 * model it has not loaded, or loaded from other bytes, in one line ({@link #find}).
 *
 * <p>THREADING: immutable.
 */
public final class ModelCatalog {
    private final List<RunnableModel> models;

    private ModelCatalog(List<RunnableModel> models) {
        this.models = List.copyOf(models);
    }

    /** The built-in models and those of {@code choice} (its given model, or the class path's and the plain one). */
    public static ModelCatalog of(ModelChoice choice) throws ModelException {
        List<RunnableModel> all = new ArrayList<>(choice.candidates());
        for (RunnableModel m : builtIn().models) {
            if (find(all, m.name(), m.fingerprint()) == null) {
                all.add(m);
            }
        }
        return new ModelCatalog(all);
    }

    /** The built-in models alone: the crowd and the plain model of the built-in node types. */
    public static ModelCatalog builtIn() throws ModelException {
        return new ModelCatalog(Models.resolve(null, List.of(), ModelCatalog.class.getClassLoader()).candidates());
    }

    /**
     * The model named {@code name} with fingerprint {@code fingerprint}.
     *
     * @throws IllegalStateException one line saying what this member has instead
     */
    public RunnableModel find(String name, String fingerprint) {
        RunnableModel m = find(models, name, fingerprint);
        if (m != null) {
            return m;
        }
        List<String> have = new ArrayList<>();
        for (RunnableModel r : models) {
            if (r.name().equals(name)) {
                throw new IllegalStateException("it loaded " + r.describe() + " with fingerprint "
                        + ModelSim.shortPrint(r.fingerprint()) + ", and the run's is " + ModelSim.shortPrint(fingerprint)
                        + " (other bytes: start every member with the same --model and --nodes jars as the run)");
            }
            have.add(r.name());
        }
        throw new IllegalStateException("it has no model '" + name + "' (it loaded " + String.join(", ", have)
                + "); start it with the run's --model and --nodes");
    }

    private static RunnableModel find(List<RunnableModel> models, String name, String fingerprint) {
        for (RunnableModel m : models) {
            if (m.name().equals(name) && m.fingerprint().equals(fingerprint)) {
                return m;
            }
        }
        return null;
    }

    /** The models, for a member's start line. */
    public String describe() {
        List<String> names = new ArrayList<>();
        for (RunnableModel m : models) {
            names.add(m.name());
        }
        return String.join(", ", names);
    }
}
