package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.cluster.SweepRow;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sweep's table: CSV quoting, Markdown escaping, the error column only when a job failed. */
class SweepTableTest {
    private static final SweepRow OK = new SweepRow("a,\"b\".json", 1000, 10, 2_500_000, 0x1234abcdL, 3, 990,
            "127.0.0.1:5701", null);
    private static final SweepRow FAILED = new SweepRow("c|d.json", 0, 10, 0, 0, 0, 0, "127.0.0.1:5702",
            "agents = 0 is out of range");

    @Test
    void csvQuotesFieldsAndAddsTheErrorColumnOnlyWhenAJobFailed() throws Exception {
        StringBuilder sb = new StringBuilder();
        SweepTable.csv(new SweepRow[] {OK}, sb);
        assertEquals(SweepTable.HEADER + "\n\"a,\"\"b\"\".json\",1000,10,2.5,250.0,000000001234abcd,3,127.0.0.1:5701\n",
                sb.toString());
        sb.setLength(0);
        SweepTable.csv(new SweepRow[] {OK, FAILED}, sb);
        assertEquals(SweepTable.HEADER + ",error\n\"a,\"\"b\"\".json\",1000,10,2.5,250.0,000000001234abcd,3,127.0.0.1:5701,\n"
                + "c|d.json,0,10,,,,,127.0.0.1:5702,agents = 0 is out of range\n", sb.toString());
    }

    @Test
    void markdownEscapesPipes() throws Exception {
        StringBuilder sb = new StringBuilder();
        SweepTable.markdown(new SweepRow[] {FAILED}, sb);
        assertEquals("| job | agents | ticks | wall_ms | ns_per_agent_tick | world_hash | alarms | member | error |\n"
                + "| --- | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |\n"
                + "| c\\|d.json | 0 | 10 |  |  |  |  | 127.0.0.1:5702 | agents = 0 is out of range |\n", sb.toString());
    }
}
