import Synchronization

/// Draws the tiles of an engraved strip when they are first needed (MIDIVizIO's librsvg side).
/// A tile's pixels depend only on its index: never on when, or on which thread, it is drawn.
package protocol SheetTileDrawing: Sendable {
    /// The coverage of tile `index`: `columns` wide (the strip's last tile may be narrower),
    /// the strip's rows, row by row, 0 (paper) to 255 (ink).
    func coverage(ofTile index: Int, columns: Int) -> [UInt8]
}

/// The tiles of an engraved strip, drawn as the playhead reaches them and kept in a small cache
/// shared by the threads that render frames: the least recently used tile (the one furthest
/// behind the playhead, as frames go forward) makes room for a new one. Memory stays
/// `capacity` tiles whatever the piece's length.
package final class SheetTiles: Sendable {
    /// The strip's width in columns, and the columns of one tile.
    package let width: Int
    package let tileColumns: Int
    /// The most tiles kept at once.
    package let capacity: Int
    private let drawer: any SheetTileDrawing
    private let cache: Mutex<Cache>

    private struct Cache {
        var tiles: [(index: Int, coverage: [UInt8], lastUse: Int)] = []
        var uses = 0
        var drawn = 0
    }

    /// - Parameters:
    ///   - first: tile 0, already drawn (the engraver draws it to check that the document draws).
    package init(width: Int, tileColumns: Int, capacity: Int, drawer: any SheetTileDrawing, first: [UInt8]? = nil) {
        self.width = max(0, width)
        self.tileColumns = max(1, tileColumns)
        self.capacity = max(1, capacity)
        self.drawer = drawer
        var cache = Cache()
        if let first { cache.tiles = [(0, first, 0)] }
        self.cache = Mutex(cache)
    }

    /// How many tiles the strip has.
    package var count: Int { (width + tileColumns - 1) / tileColumns }

    /// The columns of tile `index` (the last may be narrower).
    package func columns(ofTile index: Int) -> Int { max(0, min(tileColumns, width - index * tileColumns)) }

    /// The coverage of tile `index` (`0..<count`), drawn now if it is not in the cache. The
    /// drawing holds the cache's lock: the drawer is used by one thread at a time, and a tile is
    /// never drawn twice at once.
    package func tile(_ index: Int) -> [UInt8] {
        cache.withLock { cache in
            cache.uses += 1
            if let found = cache.tiles.firstIndex(where: { $0.index == index }) {
                cache.tiles[found].lastUse = cache.uses
                return cache.tiles[found].coverage
            }
            let coverage = drawer.coverage(ofTile: index, columns: columns(ofTile: index))
            cache.drawn += 1
            if cache.tiles.count >= capacity, let oldest = cache.tiles.indices.min(by: { cache.tiles[$0].lastUse < cache.tiles[$1].lastUse }) {
                cache.tiles.remove(at: oldest)
            }
            cache.tiles.append((index, coverage, cache.uses))
            return coverage
        }
    }

    /// The tiles in the cache now, and how many were drawn so far: for tests and measurements.
    package var held: Int { cache.withLock { $0.tiles.count } }
    package var drawn: Int { cache.withLock { $0.drawn } }
}
