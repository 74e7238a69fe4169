import DisplayX11
import Foundation
import Testing

/// The layers as the sources spell them: the compiler holds the module graph apart, and these
/// read what it cannot see (which system headers a module imports, which names it uses), so
/// that a shortcut through a layer fails here instead of in a review.
@Suite struct LayerRuleTests {
  /// The package's `Sources` folder.
  static let sources: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("Sources")
  }()

  /// Every Swift file under `Sources/module`, with its text.
  static func files(in module: String) throws -> [(path: String, text: String)] {
    let root = sources.appendingPathComponent(module)
    guard let walk = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var found: [(String, String)] = []
    for case let path as String in walk where path.hasSuffix(".swift") {
      found.append((module + "/" + path, try String(contentsOfFile: root.path + "/" + path, encoding: .utf8)))
    }
    return found.sorted { $0.0 < $1.0 }
  }

  static let modules: [String] = {
    (try? FileManager.default.contentsOfDirectory(atPath: sources.path))?.sorted() ?? []
  }()

  /// The modules a file imports (`import X`, `@preconcurrency import X`, inside `#if` too).
  static func imports(_ text: String) -> Set<String> {
    var names: Set<String> = []
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ").map(String.init)
      guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
      guard words[..<at].allSatisfy({ $0.hasPrefix("@") }) else { continue }
      names.insert(words[at + 1])
    }
    return names
  }

  @Test func theModelImportsOnlyFoundationEssentialsAndGlibc() throws {
    let files = try Self.files(in: "DisplayModel")
    #expect(files.count > 40, "the model's sources were found")
    for file in files {
      let extra = Self.imports(file.text).subtracting(["FoundationEssentials", "Synchronization", "Glibc"])
      #expect(extra.isEmpty, "\(file.path) imports \(extra.sorted())")
    }
  }

  @Test func theModelUsesGlibcOnlyForPureFunctions() throws {
    // fnmatch(3) for globs, floor/ceil for footprints: pure. Anything else from Glibc in the
    // model is I/O or process state, which belongs to DisplaySupport.
    let allowed = ["DisplayModel/Config/Glob.swift", "DisplayModel/Model/Footprint.swift"]
    let users = try Self.files(in: "DisplayModel").filter { Self.imports($0.text).contains("Glibc") }.map(\.path)
    #expect(users == allowed)
  }

  @Test func onlyTheXBackendImportsXlib() throws {
    for module in Self.modules where module != "DisplayX11" && !module.hasPrefix("C") {
      for file in try Self.files(in: module) {
        let x = Self.imports(file.text).intersection(["CXrandr", "CXRes"])
        #expect(x.isEmpty, "\(file.path) imports \(x.sorted())")
      }
    }
  }

  @Test func noModuleReExportsAnotherOrLinksFoundationsICU() throws {
    #expect(Self.modules.count >= 10, "the modules were found")
    for module in Self.modules where !module.hasPrefix("C") {
      for file in try Self.files(in: module) {
        #expect(!file.text.contains("@_exported"), "\(file.path) re-exports")
        // Foundation (not FoundationEssentials) maps ICU's 30 MB into every process.
        #expect(!Self.imports(file.text).contains("Foundation"), "\(file.path) imports Foundation")
      }
    }
  }

  @Test func theDaemonReachesNoBackendModule() throws {
    for file in try Self.files(in: "DisplayKit") {
      let backends = Self.imports(file.text).intersection(["DisplayX11", "DisplayWayland", "CWayland", "CXrandr"])
      #expect(backends.isEmpty, "\(file.path) imports \(backends.sorted())")
    }
  }

  /// The daemon speaks heads and the ports only: RandR's model (the topology, its outputs,
  /// CRTCs and modes, the plans over them, the modes displayd made) is the X backend's, which
  /// keeps its last read and answers the port from it; the daemon names none of it.
  @Test(arguments: [
    "Topology", "Output", "OutputID", "Crtc", "CrtcID", "ModeID", "ModeRelease", "CustomModes", "Plan", "ApplyOutcome",
  ])
  func theDaemonNamesNoRandRShape(_ word: String) throws {
    for file in try Self.files(in: "DisplayKit") {
      #expect(Self.occurrences(of: word, in: file.text) == 0, "\(file.path) names \(word)")
    }
  }

  /// The daemon and its ports speak of pictures as pixels and of drawing as the painter port:
  /// cairo (behind DisplayRender), X, Wayland and every other C module are the peers' to use.
  @Test(arguments: ["DisplayKit", "DisplayPorts"])
  func theDaemonAndThePortsReachNoRendererServerOrCModule(_ module: String) throws {
    let files = try Self.files(in: module)
    #expect(!files.isEmpty, "the sources of \(module) were found")
    let peers: Set<String> = ["DisplayRender", "DisplayX11", "DisplayWayland", "DisplayService"]
    for file in files {
      let reached = Self.imports(file.text).filter { peers.contains($0) || $0.hasPrefix("C") }
      #expect(reached.isEmpty, "\(file.path) imports \(reached.sorted())")
    }
  }

  /// The modules `Package.swift` lets target `name` import: the quoted names in the
  /// `dependencies: [...]` that follows `name: "<name>",` (a product's `targets:` does not).
  static func dependencies(of name: String) throws -> [String]? {
    let path = sources.deletingLastPathComponent().appendingPathComponent("Package.swift").path
    let manifest = try String(contentsOfFile: path, encoding: .utf8)
    for part in manifest.components(separatedBy: "name: \"\(name)\",").dropFirst() {
      let rest = part.drop { $0 == " " || $0 == "\n" }
      guard rest.hasPrefix("dependencies: ["), let end = rest.firstIndex(of: "]") else { continue }
      let quoted = rest[..<end].split(separator: "\"", omittingEmptySubsequences: false)
      return stride(from: 1, to: quoted.count, by: 2).map { String(quoted[$0]) }
    }
    return nil
  }

  /// The Wayland backend is the X backend's peer: RandR's model is not its to use.
  @Test func theWaylandBackendReachesNoXModule() throws {
    let files = try Self.files(in: "DisplayWayland")
    #expect(!files.isEmpty, "the sources of DisplayWayland were found")
    for file in files {
      let x = Self.imports(file.text).intersection(["DisplayX11", "CXrandr", "CXRes"])
      #expect(x.isEmpty, "\(file.path) imports \(x.sorted())")
    }
    let dependencies = try #require(try Self.dependencies(of: "DisplayWayland"))
    #expect(!dependencies.contains("DisplayX11"))
  }

  @Test func theDaemonDependsOnTheModelThePortsAndSupportOnly() throws {
    #expect(try Self.dependencies(of: "DisplayKit")?.sorted() == ["DisplayModel", "DisplayPorts", "DisplaySupport"])
    #expect(try Self.dependencies(of: "DisplayPorts")?.sorted() == ["DisplayModel", "DisplaySupport"])
  }

  /// How often the model names a RandR shape: RandR's model (the topology, its outputs and
  /// CRTCs, the plans over them, what an apply did, the modes displayd made to release) is
  /// the X backend's. What is left: a mode's id, which heads carry on the wire too. A ceiling
  /// only goes down.
  static let randrShapesInTheModel: [String: Int] = [
    "Topology": 0, "Output": 0, "OutputID": 0, "Crtc": 0, "CrtcID": 0, "CrtcChange": 0, "CrtcTransform": 0,
    "FixedScale": 0, "Plan": 0, "configTimestamp": 0, "ApplyOutcome": 0, "ModeRelease": 0, "TopologyReads": 0,
    "TopologyLayoutServer": 0, "noTransform": 0, "Rotation": 0, "TransformRefusal": 0, "ModeID": 17,
  ]

  @Test(arguments: randrShapesInTheModel.keys.sorted())
  func theModelNamesARandRShapeNoMoreOftenThanBefore(_ word: String) throws {
    let texts = try Self.files(in: "DisplayModel").map(\.text)
    let count = texts.reduce(0) { $0 + Self.occurrences(of: word, in: $1) }
    let ceiling = try #require(Self.randrShapesInTheModel[word])
    #expect(count <= ceiling, "\(word) is named \(count) times in the model, more than \(ceiling)")
  }

  /// The model says `RandR`, `Crtc` or `CRTC` only inside the user-facing texts that must stay
  /// word for word (a warning, an advice, an import note): never in a name, a comment or a
  /// value.
  @Test func theModelSaysRandROrCrtcOnlyInsideTextsThatMustNotChange() throws {
    var outside: [String] = []
    for (path, text) in try Self.files(in: "DisplayModel") {
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        for word in ["RandR", "Crtc", "CRTC"] {
          var from = line.startIndex
          while let found = line[from...].range(of: word) {
            let quotes = line[..<found.lowerBound].filter { $0 == "\"" }.count
            if quotes % 2 == 0 { outside.append("\(path):\(number + 1): \(line)") }
            from = found.upperBound
          }
        }
      }
    }
    #expect(outside.isEmpty, "\(outside.joined(separator: "\n"))")
  }

  /// Whole-word occurrences of `word` (letters, digits and `_` bound a word).
  static func occurrences(of word: String, in text: String) -> Int {
    let bytes = Array(text.utf8)
    let target = Array(word.utf8)
    func isWord(_ b: UInt8) -> Bool {
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }
    var count = 0
    var i = 0
    while i + target.count <= bytes.count {
      if bytes[i..<i + target.count].elementsEqual(target),
        i == 0 || !isWord(bytes[i - 1]),
        i + target.count == bytes.count || !isWord(bytes[i + target.count])
      {
        count += 1
        i += target.count
      } else {
        i += 1
      }
    }
    return count
  }

  @Test func aWholeWordIsCountedAndAPartIsNot() {
    #expect(Self.occurrences(of: "Crtc", in: "Crtc CrtcID [Crtc] noCrtc Crtc.") == 3)
  }
}
