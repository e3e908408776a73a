// swift-tools-version:6.0
import PackageDescription

var products: [Product] = [
    .executable(name: "midiviz", targets: ["midiviz"]),
    .library(name: "MIDIVizEngine", targets: ["MIDIVizEngine", "MIDIVizIO", "MIDIVizCore"]),
]
let propertyBased = Target.Dependency.product(name: "PropertyBased", package: "swift-property-based")
var targets: [Target] = [
    .systemLibrary(name: "CSMF", pkgConfig: "smf", providers: [.apt(["libsmf-dev"])]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    // No pkgConfig: fluidsynth.h needs no include path, and fluidsynth.pc's -pthread/-D flags are
    // ones SwiftPM refuses with a warning on every build.
    .systemLibrary(name: "CFluidSynth", providers: [.apt(["libfluidsynth-dev"])]),
    .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    // EBU R128 loudness (integrated and true peak) of the sound, to normalize it.
    .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
    // librsvg (with cairo): the engraved sheet music's SVG rasterized once into coverage tiles.
    .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
    // libpng reports errors by longjmp: this C target owns the setjmp (STYLE.md).
    .target(name: "CPNGShim", dependencies: ["CPNG", "CYUV"], linkerSettings: [.linkedLibrary("png16")]),
    // RGBA → yuv420p in C, where the compiler vectorizes it (the Swift loop was 6 ms a 1080p frame).
    // No flags of its own: release builds' -O2 vectorizes its loops as -O3 did, and a package
    // others depend on by version may not use unsafeFlags.
    .target(name: "CYUV"),
    // vmsplice(2), which Glibc's Swift module leaves out (it needs _GNU_SOURCE), and the signal
    // handler that writes to a pipe (SignalPipe.swift): a handler is C's to write.
    .target(name: "CPipe"),
    // sched_getaffinity(2) and CPU_COUNT, likewise GNU (AvailableCores.swift).
    .target(name: "CSched"),
    // malloc_trim(3), which Glibc's Swift module leaves out (malloc.h; StandardMIDIFile.swift).
    .target(name: "CMalloc"),
    // swift-algorithms: binary searches over sorted times (`partitioningIndex`).
    .target(name: "MIDIVizCore", dependencies: [.product(name: "Algorithms", package: "swift-algorithms")]),
    // swift-system: errno as `Errno` (SystemError.swift). swift-crypto: SHA-256 of the score
    // tools' cache entries (ScoreToolCache.swift). ZIPFoundation: the XML inside a compressed
    // score checked whole before MuseScore reads it (ZippedScore.swift). swift-algorithms: the
    // song's notes found by time (SheetEngraver.timedAsPlayed).
    .target(
        name: "MIDIVizIO",
        dependencies: [
            "MIDIVizCore", "CSMF", "CPNG", "CPNGShim", "CFreeType", "CFluidSynth", "CYUV", "CPipe", "CSched", "CMalloc", "CEBUR128", "CRSVG",
            .product(name: "SystemPackage", package: "swift-system"), .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"), .product(name: "Algorithms", package: "swift-algorithms"),
        ]),
    // The render pipeline as a library: a request in, outputs as one transaction.
    // swift-crypto: SHA-256 of a batch song's inputs, its up-to-date key.
    .target(name: "MIDIVizEngine", dependencies: ["MIDIVizCore", "MIDIVizIO", .product(name: "Crypto", package: "swift-crypto")]),
    .target(
        name: "MIDIVizCLI",
        dependencies: [
            "MIDIVizCore", "MIDIVizIO", "MIDIVizEngine",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
    .executableTarget(name: "midiviz", dependencies: ["MIDIVizCLI"]),
    // Prints the command line's option groups from the declarations (scripts/generate-options).
    .executableTarget(name: "midiviz-generate-options", dependencies: ["MIDIVizEngine"]),
    .executableTarget(
        name: "midiviz-bench", dependencies: ["MIDIVizCore", "MIDIVizIO", .product(name: "Algorithms", package: "swift-algorithms")],
        path: "Benchmarks/FrameLoop"),
    .testTarget(name: "MIDIVizCoreTests", dependencies: ["MIDIVizCore"]),
    .testTarget(name: "MIDIVizIOTests", dependencies: ["MIDIVizIO", "MIDIVizCore", propertyBased], exclude: ["Goldens"]),
    .testTarget(name: "MIDIVizEngineTests", dependencies: ["MIDIVizEngine", "MIDIVizIO", "MIDIVizCore", propertyBased]),
    .testTarget(name: "MIDIVizCLITests", dependencies: ["MIDIVizCLI", "MIDIVizEngine", propertyBased]),
    .testTarget(
        name: "MIDIVizEndToEndTests",
        dependencies: [
            "midiviz", "midiviz-generate-options", "MIDIVizCore", "MIDIVizEngine", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
]

// The libFuzzer targets link libFuzzer's own main, so they exist only when
// scripts/fuzz builds them (MIDIVIZ_FUZZ=1 with -sanitize=fuzzer).
if Context.environment["MIDIVIZ_FUZZ"] != nil {
    targets.append(.systemLibrary(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"))
    for (product, target, dependencies) in [
        ("midiviz-fuzz", "SMFLoaderFuzz", ["MIDIVizIO", "MIDIVizCore"]),
        ("midiviz-fuzz-scene", "SceneFuzz", ["MIDIVizIO", "MIDIVizCore"]),
        ("midiviz-fuzz-options", "RenderOptionsFuzz", ["MIDIVizCLI", "MIDIVizEngine"]),
    ] {
        products.append(.executable(name: product, targets: [target]))
        var uses: [Target.Dependency] = (dependencies + ["CFuzzerDriver"]).map { .target(name: $0) }
        if target == "RenderOptionsFuzz" { uses.append(.product(name: "ArgumentParser", package: "swift-argument-parser")) }
        targets.append(.executableTarget(name: target, dependencies: uses, path: "Fuzz/\(target)"))
    }
}

let package = Package(
    name: "midiviz",
    products: products,
    dependencies: [
        .package(url: "https://github.com/apple/swift-algorithms", from: "1.2.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // `swift package generate-documentation --target MIDIVizEngine`: the DocC catalog in
        // Sources/MIDIVizEngine/MIDIVizEngine.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
