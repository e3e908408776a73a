extension Array where Element == Shape {
    /// Removes the shapes whose index `isRemoved` says, keeping the others in order. The shapes
    /// kept are moved in memory, not copied: a dense frame removes a few of 100,000 shapes.
    mutating func removeShapes(where isRemoved: (Int) -> Bool) {
        var kept = 0
        withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices where !isRemoved(index) {
                if kept != index { buffer.swapAt(kept, index) }
                kept += 1
            }
        }
        removeLast(count - kept)
    }
}
