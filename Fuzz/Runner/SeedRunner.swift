import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The fuzzers' own entry point when built without libFuzzer (every `swift build`): it
/// feeds each file named on the command line, and each file in a folder named there, to the
/// fuzzer's `LLVMFuzzerTestOneInput` once, as libFuzzer replays a corpus. So the test suite
/// builds every fuzzer and runs it over its seeds and past crashes; a trap fails the run.
public enum SeedRunner {
  /// Runs `body` over the inputs the command line names and exits with `run`'s status.
  public static func main(_ body: (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    exit(run(Array(CommandLine.arguments.dropFirst()), body))
  }

  /// Runs `body` over the inputs `arguments` name; prints the count and returns the exit
  /// status: 0, or 66 when a path cannot be read (a seed that vanished is a failure too).
  public static func run(_ arguments: [String], _ body: (UnsafePointer<UInt8>?, Int) -> CInt) -> Int32 {
    var inputs = 0
    for path in arguments {
      guard let files = files(at: path) else {
        print("cannot read \(path)")
        return 66
      }
      for file in files {
        guard let data = FileManager.default.contents(atPath: file) else {
          print("cannot read \(file)")
          return 66
        }
        _ = Array(data).withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
        inputs += 1
      }
    }
    print("\(inputs) inputs, no crash")
    return 0
  }

  /// `path` itself, or the regular files in the folder `path`, sorted so a run is repeatable.
  private static func files(at path: String) -> [String]? {
    var isFolder: Bool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
    guard isFolder else { return [path] }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
    return names.sorted().map { path + "/" + $0 }.filter { file in
      var sub: Bool = false
      return FileManager.default.fileExists(atPath: file, isDirectory: &sub) && !sub
    }
  }
}
