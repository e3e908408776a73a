/// midiviz's version: `midiviz --version`, the man page, and what an output records it was made with.
public enum MIDIVizVersion {
    public static let current = "0.3.0"
}
