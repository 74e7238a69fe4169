import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private X server for one test: Xvnc (the hot-plug rig), Xorg with the dummy driver
/// (16 outputs), or Xephyr nested in a private Xvnc (rotation and reflection). It picks its own display number (`-displayfd`), and is stopped on deinit;
/// a guard shell kills it if the test process dies without stopping it.
public final class TestXServer {
  public enum Kind { case vnc, dummy, xephyr }

  public let kind: Kind
  /// `:N`.
  public let display: String
  /// A private folder for the server's sockets, config and log.
  public let directory: String
  /// Xvnc's RFB Unix socket, for `VNCClient`.
  public var vncSocket: String { directory + "/vnc.sock" }
  private let process: GuardedProcess
  private let displayPipe: (read: Int32, write: Int32)
  /// The Xvnc a nested Xephyr draws into; stopped after it.
  private let parent: TestXServer?

  /// Starts Xvnc with one screen of the given size.
  public static func vnc(width: Int = 1920, height: Int = 1080) throws -> TestXServer {
    try TestXServer(kind: .vnc) { dir in
      [
        "Xvnc", "-displayfd", "5", "-geometry", "\(width)x\(height)", "-SecurityTypes", "None",
        "-rfbunixpath", dir + "/vnc.sock", "-rfbport", "-1", "-nolisten", "tcp",
      ]
    }
  }

  /// Starts Xorg with the dummy driver: outputs DUMMY0 (connected) to DUMMY15.
  public static func dummy() throws -> TestXServer {
    try TestXServer(kind: .dummy) { dir in
      let config = dir + "/xorg.conf"
      try FileManager.default.copyItem(atPath: dummyConfigPath, toPath: config)
      // An empty config folder: the host's xorg.conf.d must not change a test.
      try FileManager.default.createDirectory(atPath: dir + "/xorg.conf.d", withIntermediateDirectories: true)
      return [
        "Xorg", "-displayfd", "5", "-config", config, "-configdir", dir + "/xorg.conf.d", "-noreset", "-nolisten",
        "tcp", "-logfile", dir + "/xorg.log",
      ]
    }
  }

  /// Starts Xephyr with one output, `default`, at `width` x `height`, inside a private Xvnc.
  /// Its CRTC offers every rotation and reflection, no transform; its screen is at most
  /// 1600x1200, and it has no RRSetScreenSize of its own (RandR 1.0 underneath): a mode or
  /// rotation set resizes the screen, an XRRSetScreenSize alone changes nothing.
  /// `-noreset` is needed: Xephyr 21.1.7 started without it segfaults (DamageDestroy) on its
  /// first rotation or reflection.
  public static func xephyr(width: Int = 1024, height: Int = 768) throws -> TestXServer {
    let host = try vnc(width: 1920, height: 1200)
    return try TestXServer(kind: .xephyr, parent: host, environment: ["DISPLAY": host.display]) { _ in
      ["Xephyr", "-displayfd", "5", "-screen", "\(width)x\(height)", "-nolisten", "tcp", "-no-host-grab", "-noreset"]
    }
  }

  private init(
    kind: Kind, parent: TestXServer? = nil, environment: [String: String] = [:],
    command: (String) throws -> [String]
  ) throws {
    self.kind = kind
    self.parent = parent
    directory = try makeTempDirectory("displayd-x")
    let argv = try command(directory)
    displayPipe = try makePipe()
    let env = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    do {
      process = try GuardedProcess(argv, keep: [5: displayPipe.write], environment: env)
    } catch {
      [displayPipe.read, displayPipe.write].forEach { close($0) }
      throw error
    }
    close(displayPipe.write)
    guard let number = Self.readDisplayNumber(displayPipe.read, timeout: 20) else {
      process.stop(timeout: 5)
      close(displayPipe.read)
      throw RigError("\(argv[0]) did not report a display number; see \(directory)")
    }
    display = ":\(number)"
  }

  deinit { stop() }

  private var stopped = false

  /// Stops the server and waits for it to exit.
  public func stop() {
    guard !stopped else { return }
    stopped = true
    process.stop()
    close(displayPipe.read)
    try? FileManager.default.removeItem(atPath: directory)
    parent?.stop()
  }

  /// Kills the server at once (SIGKILL), as a crash would; the guard then ends.
  public func crash() throws {
    for pid in try process.childPids() { kill(pid, SIGKILL) }
  }

  private static func readDisplayNumber(_ fd: Int32, timeout: Double) -> Int? {
    let deadline = Deadline(seconds: timeout)
    var text = ""
    var byte: UInt8 = 0
    while !deadline.passed {
      guard pollFDs([fd], timeoutMs: deadline.remainingMs).contains(0), read(fd, &byte, 1) == 1 else { return nil }
      if byte == 0x0A { return Int(text) }
      text.append(Character(Unicode.Scalar(byte)))
    }
    return nil
  }

  /// Runs `xrandr` (or another X client) against this server.
  public func run(_ argv: [String]) throws -> (status: Int32, out: String, err: String) {
    var env = ProcessInfo.processInfo.environment
    env["DISPLAY"] = display
    return try runCommand(argv, environment: env)
  }

  /// Runs a command and throws unless it succeeds; returns its stdout.
  @discardableResult
  public func must(_ argv: [String]) throws -> String {
    let r = try run(argv)
    guard r.status == 0 else { throw RigError("\(argv.joined(separator: " ")) failed (\(r.status)): \(r.err)") }
    return r.out
  }
}

/// The Xorg dummy-driver config, shared with the benchmarks.
private let dummyConfigPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Resources/xorg-dummy.conf").path

public func makeTempDirectory(_ prefix: String) throws -> String {
  var template = Array((NSTemporaryDirectory() + "/\(prefix).XXXXXX").utf8CString)
  guard let p = mkdtemp(&template) else { throw RigError("mkdtemp failed") }
  return String(cString: p)
}
