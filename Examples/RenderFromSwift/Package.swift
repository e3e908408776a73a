// swift-tools-version:6.0
// midiviz used as a library, by URL and version, as any package would: a frame as a PNG and the
// song's first seconds as an MP4 through the public API. CI builds it against a tagged clone of
// the repository (scripts/build-example).
import PackageDescription

let package = Package(
    name: "RenderFromSwift",
    dependencies: [
        .package(url: "https://github.com/midiviz/midiviz", from: "0.3.0")
    ],
    targets: [
        .executableTarget(
            name: "render-from-swift",
            dependencies: [.product(name: "MIDIVizEngine", package: "midiviz")])
    ]
)
