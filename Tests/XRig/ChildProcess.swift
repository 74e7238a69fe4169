import CLinux
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Rig failures: each says what did not happen in time or could not be done.
public struct RigError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// A child process started with `posix_spawn`, its stdout and stderr on pipes we read with
/// deadlines. Killed and reaped on deinit if still running.
public final class ChildProcess {
  public let pid: pid_t
  public let argv: [String]
  private let stdoutFD: Int32
  private let stderrFD: Int32
  private var outBuffer = [UInt8]()
  private var errBuffer = [UInt8]()
  public private(set) var exitStatus: Int32?

  /// Starts `argv` (path resolved through `$PATH`). `keep` maps child fds to our fds.
  public init(_ argv: [String], environment: [String: String]? = nil, keep: [Int32: Int32] = [:]) throws {
    self.argv = argv
    let outPipe = try makePipe()
    let errPipe = try makePipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
    // Sources move above any target first, so no dup2 overwrites a later one's source.
    let high = keep.mapValues { fcntl($0, F_DUPFD_CLOEXEC, 100) }
    defer { high.values.forEach { close($0) } }
    for (child, parent) in high { posix_spawn_file_actions_adddup2(&actions, parent, child) }
    // Test threads (Dispatch workers) block every signal; a child must not inherit that,
    // or an X server ignores SIGTERM.
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigmask(&attr, &noSignals)
    posix_spawnattr_setsigdefault(&attr, &defaults)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var env = environment ?? ProcessInfo.processInfo.environment
    if environment == nil { env["DISPLAY"] = nil }
    let envStrings = env.map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let rc = withCStrings(argv) { cargv in
      withCStrings(envStrings) { cenv in posix_spawnp(&pid, argv[0], &actions, &attr, cargv, cenv) }
    }
    close(outPipe.write)
    close(errPipe.write)
    guard rc == 0 else {
      close(outPipe.read)
      close(errPipe.read)
      throw RigError("cannot start \(argv[0]): \(String(cString: strerror(rc)))")
    }
    self.pid = pid
    stdoutFD = outPipe.read
    stderrFD = errPipe.read
  }

  deinit {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    close(stdoutFD)
    close(stderrFD)
  }

  /// The next line of stdout, or nil at the deadline or end of output.
  public func readLine(timeout: Double = 2) -> String? { line(from: stdoutFD, buffer: &outBuffer, timeout: timeout) }

  /// The next line of stderr, or nil at the deadline or end of output.
  public func readErrorLine(timeout: Double = 2) -> String? {
    line(from: stderrFD, buffer: &errBuffer, timeout: timeout)
  }

  /// Waits for the process to end and returns its exit status (128+N for a signal), or nil
  /// at the deadline. Also collects the rest of its output.
  @discardableResult
  public func wait(timeout: Double = 5) -> Int32? {
    if let exitStatus { return exitStatus }
    let deadline = Deadline(seconds: timeout)
    while true {
      var status: Int32 = 0
      let r = waitpid(pid, &status, WNOHANG)
      if r == pid {
        exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return exitStatus
      }
      if deadline.passed { return nil }
      _ = pollFDs([], timeoutMs: 5)
    }
  }

  /// Everything left on stdout and stderr after the process ended.
  public func drainOutput() -> (out: String, err: String) {
    drain(stdoutFD, &outBuffer)
    drain(stderrFD, &errBuffer)
    defer {
      outBuffer.removeAll()
      errBuffer.removeAll()
    }
    return (String(decoding: outBuffer, as: UTF8.self), String(decoding: errBuffer, as: UTF8.self))
  }

  public func signal(_ signal: Int32) { kill(pid, signal) }

  private func drain(_ fd: Int32, _ buffer: inout [UInt8]) {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while pollFDs([fd], timeoutMs: 0).contains(0) {
      let n = read(fd, &chunk, chunk.count)
      guard n > 0 else { return }
      buffer += chunk[0..<n]
    }
  }

  private func line(from fd: Int32, buffer: inout [UInt8], timeout: Double) -> String? {
    let deadline = Deadline(seconds: timeout)
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      if let nl = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<nl], as: UTF8.self)
        buffer.removeSubrange(...nl)
        return line
      }
      guard pollFDs([fd], timeoutMs: deadline.remainingMs).contains(0) else { return nil }
      let n = read(fd, &chunk, chunk.count)
      guard n > 0 else { return nil }
      buffer += chunk[0..<n]
    }
  }
}

/// Runs a command to completion and returns its status and output.
public func runCommand(_ argv: [String], environment: [String: String]? = nil, timeout: Double = 10) throws -> (
  status: Int32, out: String, err: String
) {
  let child = try ChildProcess(argv, environment: environment)
  var out = ""
  while let line = child.readLine(timeout: timeout) { out += line + "\n" }
  guard let status = child.wait(timeout: timeout) else { throw RigError("\(argv) did not finish in \(timeout) s") }
  let rest = child.drainOutput()
  return (status, out + rest.out, rest.err)
}

/// A point in time to wait until, on the monotonic clock.
public struct Deadline {
  public let end: Double
  public init(seconds: Double) { end = now() + seconds }
  public var passed: Bool { now() >= end }
  public var remainingMs: Int32 { Int32(max(0, min(Double(Int32.max), (end - now()) * 1000))) }
}

public func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// poll() for readability; returns the indices that are ready (readable or hung up).
public func pollFDs(_ fds: [Int32], timeoutMs: Int32) -> [Int] {
  var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
  let n = poll(&pfds, nfds_t(pfds.count), timeoutMs)
  guard n > 0 else { return [] }
  return pfds.indices.filter { pfds[$0].revents != 0 }
}

/// Polls `condition` until it holds or the deadline passes; returns whether it held.
public func eventually(within seconds: Double = 1, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = Deadline(seconds: seconds)
  while true {
    if try condition() { return true }
    if deadline.passed { return false }
    _ = pollFDs([], timeoutMs: 10)
  }
}

public func makePipe() throws -> (read: Int32, write: Int32) {
  var fds: [Int32] = [0, 0]
  // Close-on-exec from the start (not set after pipe()), so that no child started meanwhile
  // by a parallel suite inherits it: only the child handed a pipe end by dup2 holds it.
  guard cl_pipe_cloexec(&fds) == 0 else { throw RigError("pipe2: \(String(cString: strerror(errno)))") }
  return (fds[0], fds[1])
}

/// A process run under a guard shell that kills it when the test process goes (closing the
/// lifeline, on purpose or by dying): SIGTERM, then SIGKILL if it is still there 5 s later.
public final class GuardedProcess {
  public let guardProcess: ChildProcess
  private let lifeline: Int32
  private var stopped = false

  /// Runs `argv` with the fds in `keep` (child fd → our fd) passed on.
  public init(_ argv: [String], keep: [Int32: Int32] = [:], environment: [String: String]? = nil) throws {
    let pipe = try makePipe()
    let script = """
      "$@" </dev/null >/dev/null 2>&1 & pid=$!
      read -r _ <&3
      kill $pid 2>/dev/null
      i=0
      while kill -0 $pid 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
      kill -9 $pid 2>/dev/null
      wait $pid
      """
    do {
      guardProcess = try ChildProcess(
        ["/bin/sh", "-c", script, "x-guard"] + argv, environment: environment,
        keep: keep.merging([3: pipe.read]) { a, _ in a })
    } catch {
      close(pipe.read)
      close(pipe.write)
      throw error
    }
    close(pipe.read)
    lifeline = pipe.write
  }

  deinit { stop() }

  /// Stops the process and waits for it (and the guard) to end.
  public func stop(timeout: Double = 10) {
    guard !stopped else { return }
    stopped = true
    close(lifeline)
    guardProcess.wait(timeout: timeout)
  }

  /// The pids of the guarded process (the guard's children).
  public func childPids() throws -> [pid_t] {
    try runCommand(["pgrep", "-P", String(guardProcess.pid)]).out.split(separator: "\n").compactMap { pid_t($0) }
  }
}

private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
  let cstrings = strings.map { strdup($0) } + [nil]
  defer { cstrings.forEach { free($0) } }
  return body(cstrings)
}

/// The `displayd` binary built beside this test bundle.
public let displaydPath: String = {
  let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("displayd").path
}()

/// Runs `displayd` with `args` to completion.
public func displayd(_ args: [String], timeout: Double = 10) throws -> (status: Int32, out: String, err: String) {
  try runCommand([displaydPath] + args, timeout: timeout)
}
