package dev.crowdtree.demo.nodes;

import dev.crowdtree.demo.sim.CrowdData;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;

/**
 * {@code claimSlot}: claims a slot of the nearest smart object with a free slot within
 * {@code searchRadius}. EnterState fails at once when there is none (the failure path); otherwise
 * it posts a claim request into its chunk's claim buffer, resolved at the sync point. Each tick it
 * publishes {@code granted} and fails if the claim was rejected; it keeps running while the claim
 * is held, and gives the slot back on exit.
 *
 * <p>Outputs: {@code granted} (bool), {@code slotX}, {@code slotY} (the slot's position, for a
 * child's {@code moveTo}). Allocation: none.
 */
public final class ClaimSlotTask extends Task {
    private final CrowdData data;
    private final float radius;
    private final int grantedSlot;
    private final int slotXSlot;
    private final int slotYSlot;

    public ClaimSlotTask(NodeConfig c, CrowdData data) {
        super(c, true);
        this.data = data;
        this.radius = c.floatValue("searchRadius");
        this.grantedSlot = c.field("granted");
        this.slotXSlot = c.field("slotX");
        this.slotYSlot = c.field("slotY");
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        ctx.bools(grantedSlot)[row] = 0;
        int o = data.objects.findFree(data.x.get(row), data.y.get(row), radius);
        if (o < 0) {
            return RunStatus.FAILED;
        }
        data.claimObject.set(row, o);
        data.claimState.set(row, CrowdData.CLAIM_PENDING);
        data.claimsOfRow(row).request(ctx.agentId(row), o, data.claimEpoch.get(row));
        // stand around the object, not on it
        float a = ctx.random(row, stream()) * (float) (2 * Math.PI);
        ctx.floats(slotXSlot)[row] = data.objects.x[o] + 1.5f * (float) Math.cos(a);
        ctx.floats(slotYSlot)[row] = data.objects.y[o] + 1.5f * (float) Math.sin(a);
        return RunStatus.RUNNING;
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final byte[] state = data.claimState.data();
        final byte[] granted = ctx.bools(grantedSlot);
        for (int i = from; i < to; i++) {
            int r = rows[i];
            byte s = state[r];
            if (s == CrowdData.CLAIM_GRANTED) {
                granted[r] = 1;
            } else if (s == CrowdData.CLAIM_REJECTED) {
                ctx.fail(r);
            }
        }
    }

    @Override
    public void exitState(NodeContext ctx, int row) {
        byte s = data.claimState.get(row);
        if (s == CrowdData.CLAIM_GRANTED) {
            data.claimsOfRow(row).release(data.claimObject.get(row));
        }
        if (s != CrowdData.CLAIM_NONE) {
            data.claimState.set(row, CrowdData.CLAIM_NONE);
            data.claimEpoch.set(row, data.claimEpoch.get(row) + 1);
        }
        ctx.bools(grantedSlot)[row] = 0;
    }
}
