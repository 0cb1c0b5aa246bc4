// swift-tools-version: 6.0
import PackageDescription

let argumentParser = Target.Dependency.product(
  name: "ArgumentParser", package: "swift-argument-parser")

/// What every executable uses: the library, the shared options, the parser.
let commandLine: [Target.Dependency] = ["HangulKit", "HangulCommandLine", argumentParser]

/// Release programs link the Swift runtime statically: a run starts without
/// loading and relocating a dozen shared libraries (a few milliseconds, a
/// fair share of a short run). The runtime's Foundation part needs its two
/// support libraries named. They are position-dependent executables
/// (`-no-pie`): as PIEs, the static runtime's 41,000 relative relocations
/// (1 MB that the loader reads at every start, and the pages of pointers it
/// writes) were over 1 MiB of every run's peak memory (`hangul-compose
/// --version`: 12.0 -> 10.9 MiB; the 100 MB Translog-II log 1.4 MiB less),
/// and start-up is a little faster; DT_RELR, which would pack them in a
/// PIE, needs glibc 2.36 and lld. The price: the program's own code and
/// data are at the same address in every run (libraries, heap and stack
/// are still randomized).
let staticRuntime: [LinkerSetting] = [
  .unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie"], .when(configuration: .release)),
  .linkedLibrary("_FoundationCShims", .when(configuration: .release)),
  .linkedLibrary("_FoundationCollections", .when(configuration: .release)),
]

let package = Package(
  name: "hangul-tools",
  products: [
    .library(name: "HangulInput", targets: ["HangulInput"]),
    .library(name: "HangulKit", targets: ["HangulKit"]),
    .library(name: "HangulWrongMode", targets: ["HangulWrongMode"]),
    .executable(name: "hangul-compose", targets: ["hangul-compose"]),
    .executable(name: "hangul-decompose", targets: ["hangul-decompose"]),
    .executable(name: "hangul-reviews", targets: ["hangul-reviews"]),
    .executable(name: "hangul-normalize", targets: ["hangul-normalize"]),
    .executable(name: "hangul-wrongmode", targets: ["hangul-wrongmode"]),
  ],
  dependencies: [
    // Exactly this version, so that every build is the same. Not by a
    // committed Package.resolved: its commit ids are those of the copy a
    // machine resolved from (a mirror's are not GitHub's), so it breaks builds elsewhere.
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2")
  ],
  targets: [
    .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
    .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
    .systemLibrary(name: "CSystemCalls"),
    // Swift's standard library only: builds for an iOS keyboard extension,
    // WebAssembly and Embedded Swift (tools/embedded/build.sh). Its automata
    // run in the filters' hot loops: release builds let the compiler inline
    // and specialize them across the module boundary.
    .target(
      name: "HangulInput",
      swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]),
    .target(name: "HangulKit", dependencies: ["HangulInput", "CICU", "CExpat", "CSystemCalls"]),
    .target(
      name: "HangulCommandLine", dependencies: ["HangulKit", "CSystemCalls", argumentParser]),
    // Text typed in the wrong 한/영 mode, judged with Hunspell's dictionaries:
    // a library of its own, so that the other programs do not link libhunspell.
    .systemLibrary(
      name: "CHunspell", pkgConfig: "hunspell", providers: [.apt(["libhunspell-dev"])]),
    .target(name: "HangulWrongMode", dependencies: ["HangulKit", "CHunspell"]),
    .executableTarget(
      name: "hangul-compose", dependencies: commandLine, linkerSettings: staticRuntime),
    .executableTarget(
      name: "hangul-decompose", dependencies: commandLine, linkerSettings: staticRuntime),
    .executableTarget(
      name: "hangul-reviews", dependencies: commandLine, linkerSettings: staticRuntime),
    .executableTarget(
      name: "hangul-normalize", dependencies: commandLine, linkerSettings: staticRuntime),
    .executableTarget(
      name: "hangul-wrongmode", dependencies: commandLine + ["HangulWrongMode"],
      linkerSettings: staticRuntime),
    // What every test target shares (one seeded random generator), not a product.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(
      name: "HangulInputTests", dependencies: ["HangulInput", "TestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "HangulKitTests", dependencies: ["HangulKit", "HangulCommandLine", "TestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "HangulWrongModeTests", dependencies: ["HangulWrongMode", "TestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "HangulKit", "hangul-compose", "hangul-decompose", "hangul-reviews", "hangul-normalize",
        "hangul-wrongmode", "TestSupport",
      ]),
  ]
)
