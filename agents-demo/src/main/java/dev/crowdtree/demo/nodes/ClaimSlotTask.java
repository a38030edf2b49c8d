package dev.crowdtree.demo.nodes;

import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;

import static dev.crowdtree.demo.nodes.CrowdWorld.CLAIM_GRANTED;
import static dev.crowdtree.demo.nodes.CrowdWorld.CLAIM_NONE;
import static dev.crowdtree.demo.nodes.CrowdWorld.CLAIM_PENDING;
import static dev.crowdtree.demo.nodes.CrowdWorld.CLAIM_REJECTED;

/**
 * {@code claimSlot}: claims a slot of the nearest smart object with a free slot within
 * {@code searchRadius}. EnterState fails at once when there is none (the failure path); otherwise
 * it posts a claim request (into its chunk's claim buffer, resolved at the sync point). Each tick it
 * publishes {@code granted} and fails if the claim was rejected; it keeps running while the claim
 * is held, and gives the slot back on exit.
 *
 * <p>Outputs: {@code granted} (bool), {@code slotX}, {@code slotY} (the slot's position, for a
 * child's {@code moveTo}). Reads {@code x}, {@code y}; writes {@code claimObject},
 * {@code claimState}, {@code claimEpoch}. Allocation: none.
 */
public final class ClaimSlotTask extends Task {
    private final External<CrowdWorld> crowd;
    private final float radius;
    private final int grantedSlot;
    private final int slotXSlot;
    private final int slotYSlot;
    private final int xCol;
    private final int yCol;
    private final int objectCol;
    private final int stateCol;
    private final int epochCol;

    public ClaimSlotTask(NodeConfig c) {
        super(c, true);
        this.crowd = c.external(CrowdWorld.EXTERNAL, CrowdWorld.class);
        this.radius = c.floatValue("searchRadius");
        this.grantedSlot = c.field("granted");
        this.slotXSlot = c.field("slotX");
        this.slotYSlot = c.field("slotY");
        this.xCol = c.column(CrowdWorld.X);
        this.yCol = c.column(CrowdWorld.Y);
        this.objectCol = c.column(CrowdWorld.CLAIM_OBJECT);
        this.stateCol = c.column(CrowdWorld.CLAIM_STATE);
        this.epochCol = c.column(CrowdWorld.CLAIM_EPOCH);
    }

    @Override
    public byte enterState(NodeContext ctx, int row) {
        ctx.bools(grantedSlot)[row] = 0;
        CrowdWorld w = ctx.external(crowd);
        int o = w.findFreeObject(ctx.hostFloats(xCol)[row], ctx.hostFloats(yCol)[row], radius);
        if (o < 0) {
            return RunStatus.FAILED;
        }
        ctx.hostInts(objectCol)[row] = o;
        ctx.hostBytes(stateCol)[row] = CLAIM_PENDING;
        w.requestClaim(row, ctx.agentId(row), o, ctx.hostInts(epochCol)[row]);
        // stand around the object, not on it
        float a = ctx.random(row, stream()) * (float) (2 * Math.PI);
        ctx.floats(slotXSlot)[row] = w.objectX(o) + 1.5f * (float) Math.cos(a);
        ctx.floats(slotYSlot)[row] = w.objectY(o) + 1.5f * (float) Math.sin(a);
        return RunStatus.RUNNING;
    }

    @Override
    public void tick(NodeContext ctx, int[] rows, int from, int to) {
        final byte[] state = ctx.hostBytes(stateCol);
        final byte[] granted = ctx.bools(grantedSlot);
        for (int i = from; i < to; i++) {
            int r = rows[i];
            byte s = state[r];
            if (s == CLAIM_GRANTED) {
                granted[r] = 1;
            } else if (s == CLAIM_REJECTED) {
                ctx.fail(r);
            }
        }
    }

    @Override
    public void exitState(NodeContext ctx, int row) {
        byte[] state = ctx.hostBytes(stateCol);
        byte s = state[row];
        if (s == CLAIM_GRANTED) {
            ctx.external(crowd).releaseClaim(row, ctx.hostInts(objectCol)[row]);
        }
        if (s != CLAIM_NONE) {
            state[row] = CLAIM_NONE;
            ctx.hostInts(epochCol)[row]++;
        }
        ctx.bools(grantedSlot)[row] = 0;
    }
}
