// swift-tools-version:6.0
import PackageDescription

var products: [Product] = [
    .executable(name: "midiviz", targets: ["midiviz"]),
    .library(name: "MIDIVizEngine", targets: ["MIDIVizEngine", "MIDIVizIO", "MIDIVizCore"]),
]
var targets: [Target] = [
    .systemLibrary(name: "CSMF", pkgConfig: "smf", providers: [.apt(["libsmf-dev"])]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    // No pkgConfig: fluidsynth.h needs no include path, and fluidsynth.pc's -pthread/-D flags are
    // ones SwiftPM refuses with a warning on every build.
    .systemLibrary(name: "CFluidSynth", providers: [.apt(["libfluidsynth-dev"])]),
    .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    // libpng reports errors by longjmp: this C target owns the setjmp (STYLE.md).
    .target(name: "CPNGShim", dependencies: ["CPNG"], linkerSettings: [.linkedLibrary("png16")]),
    // RGBA → yuv420p in C, where the compiler vectorizes it (the Swift loop was 6 ms a 1080p frame).
    .target(name: "CYUV", cSettings: [.unsafeFlags(["-O3"])]),
    .target(name: "MIDIVizCore"),
    .target(name: "MIDIVizIO", dependencies: ["MIDIVizCore", "CSMF", "CPNG", "CPNGShim", "CFreeType", "CFluidSynth", "CYUV"]),
    // The render pipeline as a library: a request in, outputs as one transaction.
    .target(name: "MIDIVizEngine", dependencies: ["MIDIVizCore", "MIDIVizIO"]),
    .target(
        name: "MIDIVizCLI",
        dependencies: [
            "MIDIVizCore", "MIDIVizIO", "MIDIVizEngine",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    .executableTarget(name: "midiviz", dependencies: ["MIDIVizCLI"]),
    .executableTarget(name: "midiviz-bench", dependencies: ["MIDIVizCore", "MIDIVizIO"], path: "Benchmarks/FrameLoop"),
    .testTarget(name: "MIDIVizCoreTests", dependencies: ["MIDIVizCore"]),
    .testTarget(name: "MIDIVizIOTests", dependencies: ["MIDIVizIO", "MIDIVizCore"], exclude: ["Goldens"]),
    .testTarget(name: "MIDIVizEngineTests", dependencies: ["MIDIVizEngine", "MIDIVizIO", "MIDIVizCore"]),
    .testTarget(name: "MIDIVizEndToEndTests", dependencies: ["midiviz", "MIDIVizCore"]),
]

// The libFuzzer target links libFuzzer's own main, so it exists only when
// scripts/fuzz builds it (MIDIVIZ_FUZZ=1 with -sanitize=fuzzer).
if Context.environment["MIDIVIZ_FUZZ"] != nil {
    products.append(.executable(name: "midiviz-fuzz", targets: ["SMFLoaderFuzz"]))
    targets.append(.systemLibrary(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"))
    targets.append(.executableTarget(
        name: "SMFLoaderFuzz", dependencies: ["MIDIVizIO", "MIDIVizCore", "CFuzzerDriver"], path: "Fuzz/SMFLoaderFuzz"))
}

let package = Package(
    name: "midiviz",
    products: products,
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: targets,
    swiftLanguageModes: [.v5]
)
