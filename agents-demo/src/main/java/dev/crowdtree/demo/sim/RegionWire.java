package dev.crowdtree.demo.sim;

import dev.crowdtree.core.storage.Column;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** The byte level of {@link Region}'s messages: sections of records, and column values at their type's width. */
final class RegionWire {
    private RegionWire() {
    }

    /** Bytes of a column's values on the wire: its type's width (0 for an object column, which has no bits). */
    static int width(Column c) {
        switch (c.typeName()) {
            case "byte":
                return 1;
            case "short":
                return 2;
            case "int":
            case "float":
                return 4;
            case "long":
                return 8;
            default:
                return 0;
        }
    }

    static void writeValue(DataOutputStream out, int width, long bits) throws IOException {
        switch (width) {
            case 1 -> out.writeByte((int) bits);
            case 2 -> out.writeShort((int) bits);
            case 4 -> out.writeInt((int) bits);
            case 8 -> out.writeLong(bits);
            default -> { }
        }
    }

    static long readValue(DataInputStream in, int width) throws IOException {
        return switch (width) {
            case 1 -> in.readByte();
            case 2 -> in.readShort();
            case 4 -> in.readInt();
            case 8 -> in.readLong();
            default -> 0L;
        };
    }

    /** One section of one outgoing message: a count, then its records. */
    static final class Section {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);
        int count;

        static Section[] of(int n) {
            Section[] s = new Section[n];
            for (int i = 0; i < n; i++) {
                s[i] = new Section();
            }
            return s;
        }

        int size() {
            return bytes.size();
        }

        /** The count, then {@code header} unless negative (the migrants' column count), then the records. */
        void writeTo(DataOutputStream dest, int header) throws IOException {
            dest.writeInt(count);
            if (header >= 0) {
                dest.writeInt(header);
            }
            bytes.writeTo(dest);
        }
    }
}
