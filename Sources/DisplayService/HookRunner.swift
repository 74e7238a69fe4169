import CLinux
import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs hook programs with `posix_spawn`, never through a shell: values from a monitor's EDID
/// travel only as environment variables, as data. Output is collected through a pipe the
/// event loop polls, exits are reaped on SIGCHLD, and a hook over its time limit is killed;
/// nothing here blocks.
public final class HookRunner {
  private struct Running {
    var name: String
    /// The output pipe; nil once the hook closed its end (it stays here until reaped).
    var pipe: FileDescriptor?
    var deadline: UInt64
    var output: [UInt8] = []
  }

  private var running: [pid_t: Running] = [:]
  /// Armed for the earliest deadline while any hook runs; made with the first hook.
  private var timer: DeadlineTimer?
  private let log: Logger
  public var timeoutSeconds: Double
  static let maxOutput = 16 * 1024
  /// More hooks than this at once are skipped with a warning, so a burst of events cannot
  /// exhaust the daemon's descriptors.
  public static let maxRunning = 32

  public init(log: Logger, timeoutSeconds: Double = 10) {
    self.log = log
    self.timeoutSeconds = timeoutSeconds
  }

  deinit {
    for (pid, hook) in running {
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
      hook.pipe?.close()
    }
  }

  public var runningCount: Int { running.count }

  /// Descriptors to poll: the output pipes, and the timer while any hook runs.
  public var descriptors: [FileDescriptor] {
    running.values.compactMap(\.pipe) + (running.isEmpty ? [] : timer.map { [$0.fileDescriptor] } ?? [])
  }

  /// Starts `argv` with the current environment plus `environment`.
  public func start(_ argv: [String], environment: [String: String]) {
    guard let program = argv.first else { return }
    guard running.count < Self.maxRunning else {
      return log.warning("hook \(program) skipped: \(Self.maxRunning) hooks already run")
    }
    var fds: [Int32] = [0, 0]
    do throws(SystemError) {
      try systemCall("pipe2") { pipe2(&fds, O_CLOEXEC) }
    } catch {
      return log.error("hook \(program): \(error)")
    }
    let (output, input) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    UnixSocket.setNonBlocking(output)
    defer { input.close() }
    var pid: pid_t = 0
    let rc = spawn(argv, environment: environment, output: input.rawValue, pid: &pid)
    guard rc == 0 else {
      output.close()
      return log.error("hook \(program) could not start: \(String(cString: strerror(rc)))")
    }
    // The hook runs first, the daemon (its log line, then its windows) after. posix_spawn
    // blocks the daemon until the child execs; woken then, the daemon can take the CPU the
    // child was made on, and the child, not yet in its `main`, would wait there behind the
    // drawing until the next scheduler tick (4 ms at HZ=250), even with another CPU idle.
    sched_yield()
    let deadline = monotonicNanoseconds().addingSaturating(Self.nanoseconds(timeoutSeconds))
    running[pid] = Running(name: program, pipe: output, deadline: deadline)
    log.info(
      "hook \(program) started (pid \(pid)) for \(environment["DISPLAYD_EVENT"] ?? "?") \(environment["DISPLAYD_OUTPUT"] ?? "")"
    )
    armTimer()
  }

  /// Handles readiness of `fd` if it is a hook's pipe or the timer; returns whether it was.
  @discardableResult
  public func handle(fd: FileDescriptor) -> Bool {
    if let timer, fd == timer.fileDescriptor {
      timer.acknowledge()
      killOverdue()
      return true
    }
    guard let pid = running.first(where: { $0.value.pipe == fd })?.key else { return false }
    var chunk = [UInt8](repeating: 0, count: 4096)
    switch Self.read(fd, into: &chunk) {
    case .success(let n) where n > 0:
      if var hook = running[pid] {
        hook.output += chunk[0..<min(n, max(0, Self.maxOutput - hook.output.count))]
        running[pid] = hook
      }
    case .failure(let error) where error.code == EAGAIN: break
    default:
      // End of output (or a hung-up pipe): a pipe left in the poll set would be ready
      // forever and spin the loop. The hook stays in `running` until it is reaped.
      fd.close()
      running[pid]?.pipe = nil
    }
    return true
  }

  /// `seconds` in nanoseconds, saturating: NaN and negatives are 0, huge values UInt64.max.
  static func nanoseconds(_ seconds: Double) -> UInt64 {
    guard seconds > 0 else { return 0 }
    let ns = seconds * 1e9
    return ns < 18_446_744_073_709_549_568.0 ? UInt64(ns) : UInt64.max
  }

  /// Reaps hooks that exited (call on SIGCHLD) and logs their status and output.
  public func reap() {
    while true {
      var status: Int32 = 0
      // 0: none exited; ECHILD: none left.
      guard let pid = try? systemCall("waitpid", { waitpid(-1, &status, WNOHANG) }), pid > 0 else { return }
      guard var hook = running.removeValue(forKey: pid) else { continue }
      var chunk = [UInt8](repeating: 0, count: 4096)
      while let pipe = hook.pipe, case .success(let n) = Self.read(pipe, into: &chunk), n > 0,
        hook.output.count < Self.maxOutput
      {
        hook.output += chunk[0..<min(n, Self.maxOutput - hook.output.count)]
      }
      hook.pipe?.close()
      let how = status & 0x7f == 0 ? "exited with status \((status >> 8) & 0xff)" : "killed by signal \(status & 0x7f)"
      let text = String(decoding: hook.output, as: UTF8.self).split(separator: "\n").joined(separator: " | ")
      let line = "hook \(hook.name) (pid \(pid)) \(how)" + (text.isEmpty ? "" : "; output: \(text)")
      if status == 0 { log.info(line) } else { log.warning(line) }
    }
  }

  private static func read(_ fd: FileDescriptor, into chunk: inout [UInt8]) -> Result<Int, SystemError> {
    chunk.withUnsafeMutableBytes { buffer in Result { () throws(SystemError) in try fd.read(into: buffer) } }
  }

  private func killOverdue() {
    let now = monotonicNanoseconds()
    for (pid, hook) in running where hook.deadline <= now {
      log.warning("hook \(hook.name) (pid \(pid)) ran over \(timeoutSeconds) s; killing it")
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
      running[pid]?.deadline = UInt64.max
    }
    armTimer()
  }

  /// Arms a one-shot timer for the earliest deadline; there is no timer while nothing runs.
  private func armTimer() {
    if timer == nil { timer = try? DeadlineTimer() }
    guard let timer else { return }
    guard let next = running.values.map(\.deadline).filter({ $0 != UInt64.max }).min() else {
      return timer.disarm()
    }
    // One reading of the clock: a deadline passing between two readings would underflow.
    let now = monotonicNanoseconds()
    timer.arm(after: next > now ? next - now : 1)
  }

  private func spawn(_ argv: [String], environment: [String: String], output: Int32, pid: inout pid_t) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, output, 2)
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    // The daemon blocks its signals for signalfd; a hook must start with none blocked.
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attr, &none)
    posix_spawnattr_setsigdefault(&attr, &all)
    posix_spawnattr_setpgroup(&attr, 0)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    var env: [String] = []
    var index = 0
    while let entry = environ[index] {
      let text = String(cString: entry)
      let name = String(text.prefix { $0 != "=" })
      if environment[name] == nil { env.append(text) }
      index += 1
    }
    env += environment.map { "\($0.key)=\($0.value)" }
    let cargv = argv.map { strdup($0) } + [nil]
    let cenv = env.map { strdup($0) } + [nil]
    defer {
      cargv.forEach { free($0) }
      cenv.forEach { free($0) }
    }
    return posix_spawnp(&pid, argv[0], &actions, &attr, cargv, cenv)
  }
}

extension UInt64 {
  /// `self + other`, or `UInt64.max` when that overflows.
  func addingSaturating(_ other: UInt64) -> UInt64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }
}
