// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "displayd",
  products: [
    .executable(name: "displayd", targets: ["displayd"]),
    .library(name: "DisplayKit", targets: ["DisplayKit"]),
  ],
  targets: [
    .systemLibrary(
      name: "CXrandr",
      pkgConfig: "xrandr",
      providers: [
        .apt([
          "libx11-dev", "libxrandr-dev", "libxrender-dev", "libxdamage-dev",
          "libxfixes-dev", "libxext-dev", "libxres-dev",
        ])
      ]
    ),
    .systemLibrary(
      name: "CCairo",
      pkgConfig: "pangocairo",
      providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
    ),
    .systemLibrary(name: "CLinux"),
    .target(name: "DisplayKit", dependencies: ["CXrandr", "CCairo", "CLinux"]),
    .executableTarget(name: "displayd", dependencies: ["DisplayKit"]),
    .testTarget(
      name: "DisplayKitTests",
      dependencies: ["DisplayKit", "CXrandr"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
