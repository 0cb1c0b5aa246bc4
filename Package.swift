// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "hangul-tools",
  products: [
    .library(name: "HangulKit", targets: ["HangulKit"]),
    .executable(name: "hangul-compose", targets: ["hangul-compose"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .target(name: "HangulKit"),
    .executableTarget(
      name: "hangul-compose",
      dependencies: [
        "HangulKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "HangulKitTests", dependencies: ["HangulKit"], resources: [.copy("Fixtures")]),
    .testTarget(name: "EndToEndTests", dependencies: ["HangulKit"]),
  ]
)
