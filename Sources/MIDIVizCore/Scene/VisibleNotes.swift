/// The notes visible at the last two moments a worker looked up (`NoteIndex.visible`), kept
/// for the frames it draws next: a frame drawn over the one before asks for its own moment
/// more than once (what changed, then the shapes) and for the frame before's, which that frame
/// looked up already. A dense roll saved three lookups of 45,000 notes a frame. Belongs to one
/// scene, as the workspace that holds it belongs to one renderer.
package struct VisibleNotes: Sendable {
    private var latest: (seconds: Double, indices: [Int])?
    private var before: (seconds: Double, indices: [Int])?

    package init() {}

    /// The indices `index.visible(at: seconds)` returns.
    mutating func at(_ seconds: Double, in index: NoteIndex) -> [Int] {
        if let latest, latest.seconds == seconds { return latest.indices }
        if let before, before.seconds == seconds { return before.indices }
        let indices = index.visible(at: seconds)
        before = latest
        latest = (seconds, indices)
        return indices
    }
}
