package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which member runs which region ({@link ClusterRun}): region {@code r} goes to the owner of the
 * partition of key {@code r<r>} when that member is one of {@code members}, else to the member with
 * the fewest regions, at most {@code ceil(regions / members)} each.
 */
final class RegionPlan {
    private RegionPlan() {
    }

    /** The plan: each member's regions, in {@code members}' order. */
    static Map<Member, List<Integer>> of(HazelcastInstance driver, List<Member> members, int n) {
        int cap = (n + members.size() - 1) / members.size();
        Map<Member, List<Integer>> lists = new LinkedHashMap<>();
        for (Member m : members) {
            lists.put(m, new ArrayList<>());
        }
        List<Integer> unplaced = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            Member owner = driver.getPartitionService().getPartition(ClusterConfigs.regionKey(r)).getOwner();
            List<Integer> l = owner == null ? null : lists.get(owner);
            if (l != null && l.size() < cap) {
                l.add(r);
            } else {
                unplaced.add(r);
            }
        }
        for (int r : unplaced) {
            List<Integer> least = null;
            for (List<Integer> l : lists.values()) {
                if (least == null || l.size() < least.size()) {
                    least = l;
                }
            }
            least.add(r);
        }
        return lists;
    }
}
