import ArgumentParser
import Foundation
import MIDIVizEngine

/// `--shard K/N`: this machine renders the K-th of N shares of the songs (K from 1), or `auto`:
/// K and N from the CI engine's own variables (`BatchShard.fromEnvironment`).
enum ShardSpec: ExpressibleByArgument, Equatable {
    case fixed(BatchShard)
    case auto

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
            return
        }
        guard let shard = BatchShard(argument) else { return nil }
        self = .fixed(shard)
    }

    /// The share: as given, or found in `environment`.
    func resolve(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(BatchError) -> BatchShard {
        switch self {
        case .fixed(let shard): return shard
        case .auto:
            do throws(BatchError) {
                return try BatchShard.fromEnvironment(environment)
            } catch .usage(let message) {
                throw .usage("--shard auto: \(message)")
            }
        }
    }
}
