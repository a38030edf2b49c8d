package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.model.HostSystem;
import dev.crowdtree.statetree.model.ModelTick;
import dev.crowdtree.statetree.model.SystemBinding;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The guards model's {@code intruder} system, first before the trees: the intruder walks its route
 * ({@link Intruder#walk}) on the simulation thread. It touches no column; it saves the intruder in
 * snapshots and mixes its position into the world hash.
 */
final class IntruderSystem implements HostSystem {
    private Intruder intruder;

    @Override
    public void bind(SystemBinding binding) {
        intruder = binding.external(Intruder.EXTERNAL, Intruder.class);
    }

    @Override
    public void beginTick(ModelTick tick) {
        intruder.walk(tick.tick(), tick.dt(), tick.seed());
    }

    @Override
    public void save(DataOutputStream out) throws IOException {
        out.writeFloat(intruder.x());
        out.writeFloat(intruder.y());
        out.writeBoolean(intruder.onRoute());
    }

    @Override
    public void restore(DataInputStream in) throws IOException {
        float x = in.readFloat();
        float y = in.readFloat();
        boolean route = in.readBoolean();
        if (!Float.isFinite(x) || !Float.isFinite(y)) {
            throw new IOException("the saved intruder is at (" + x + ", " + y + ")");
        }
        intruder.restore(x, y, route);
    }

    @Override
    public long stateHash() {
        return ((long) Float.floatToIntBits(intruder.x()) << 32 | Float.floatToIntBits(intruder.y()) & 0xFFFFFFFFL)
                ^ (intruder.onRoute() ? 1 : 0);
    }
}
