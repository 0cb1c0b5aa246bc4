// swift-tools-version: 6.0
import PackageDescription

let argumentParser = Target.Dependency.product(
  name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
  name: "hangul-tools",
  products: [
    .library(name: "HangulKit", targets: ["HangulKit"]),
    .executable(name: "hangul-compose", targets: ["hangul-compose"]),
    .executable(name: "hangul-decompose", targets: ["hangul-decompose"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
    .target(name: "HangulKit", dependencies: ["CICU"]),
    .executableTarget(name: "hangul-compose", dependencies: ["HangulKit", argumentParser]),
    .executableTarget(name: "hangul-decompose", dependencies: ["HangulKit", argumentParser]),
    .testTarget(name: "HangulKitTests", dependencies: ["HangulKit"], exclude: ["Fixtures"]),
    .testTarget(
      name: "EndToEndTests", dependencies: ["HangulKit", "hangul-compose", "hangul-decompose"]),
  ]
)
