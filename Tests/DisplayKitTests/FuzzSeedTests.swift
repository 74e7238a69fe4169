import Foundation
import Testing
import XRig

/// Every fuzzer is a package target over the real modules, so every build compiles it; here
/// each runs over its seeds and the crashes found before (its plain build's main feeds each
/// file to `LLVMFuzzerTestOneInput` once). A fuzzer that no longer builds fails the build; one
/// that traps on a seed fails here.
@Suite struct FuzzSeedTests {
  /// The project's folder.
  static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// Runs the fuzzer `name` (built beside this test bundle) over `paths`; its count of inputs.
  func run(_ name: String, _ paths: [String]) throws -> Int? {
    let binary = URL(fileURLWithPath: displaydPath).deletingLastPathComponent().appendingPathComponent(name).path
    let r = try runCommand([binary] + paths, timeout: 60)
    #expect(r.status == 0, "\(name): \(r.out) \(r.err.suffix(2000))")
    return r.out.split(separator: " ").first.flatMap { Int($0) }
  }

  func count(_ folder: String) throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: folder).count
  }

  @Test func theEDIDFuzzerRunsOverTheEDIDCorpus() throws {
    var folders = [fixtureFolder]
    if let shared = sharedEDIDFolder {
      folders += [shared, shared + "/malformed"].filter { FileManager.default.fileExists(atPath: $0) }
    }
    let files = try folders.map(count).reduce(0, +)
    let inputs = try run("fuzz-edid", folders)
    // Folders count their subfolders too; the runner feeds only files.
    #expect(inputs.map { $0 > 0 && $0 <= files } == true, "\(String(describing: inputs)) of \(files)")
  }

  @Test func theConfigFuzzerRunsOverItsSeeds() throws {
    let seeds = Self.root + "/Fuzz/seeds/config"
    #expect(try run("fuzz-config", [seeds]) == count(seeds))
  }

  @Test func theControlFuzzerRunsOverItsSeeds() throws {
    let seeds = Self.root + "/Fuzz/seeds/control"
    #expect(try run("fuzz-control", [seeds]) == count(seeds))
  }

  /// A seed that cannot be read fails the run: a vanished corpus is not a pass.
  @Test func aMissingSeedFailsTheRun() throws {
    let binary = URL(fileURLWithPath: displaydPath).deletingLastPathComponent().appendingPathComponent("fuzz-config")
    let r = try runCommand([binary.path, "/nonexistent/seed"])
    #expect(r.status == 66 && r.out.contains("cannot read /nonexistent/seed"))
  }
}
