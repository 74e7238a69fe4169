import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A command run in a process group of its own under a guard shell, its output in a log
/// file. Stopping it (or the test process going, which closes the lifeline) signals the whole
/// group: SIGTERM, then SIGKILL to whatever is left 2 s later. A compositor's children
/// (Xwayland) stay in its group, so they go with it.
public final class ProcessGroup {
  public let guardProcess: ChildProcess
  public let logPath: String
  private let lifeline: Int32
  private var stopped = false

  public init(_ argv: [String], log: String, environment: [String: String]? = nil) throws {
    let pipe = try makePipe()
    // setsid: a session and process group of its own, whose id is its pid (a background job
    // of this shell is no group leader, so setsid does not fork).
    let script = """
      setsid "$@" </dev/null >"$LOG" 2>&1 & pid=$!
      live() { ps -e -o pgid= -o stat= | awk -v g="$pid" '$1 == g && $2 !~ /^Z/ { n++ } END { exit n == 0 }'; }
      read -r _ <&3
      # The leader's children first: runuser, the usual leader, ends as soon as its child
      # does, but lingers 2 s after a SIGTERM of its own.
      for p in $(pgrep -g $pid); do [ "$p" = "$pid" ] || kill -TERM "$p" 2>/dev/null; done
      i=0
      while live && [ $i -lt 100 ]; do sleep 0.02; i=$((i+1)); done
      kill -KILL -$pid 2>/dev/null
      wait $pid
      """
    var env = environment ?? ProcessInfo.processInfo.environment
    env["LOG"] = log
    logPath = log
    do {
      guardProcess = try ChildProcess(
        ["/bin/sh", "-c", script, "x-group"] + argv, environment: env, keep: [3: pipe.read])
    } catch {
      close(pipe.read)
      close(pipe.write)
      throw error
    }
    close(pipe.read)
    lifeline = pipe.write
  }

  deinit { stop() }

  /// The process group's id (the command's pid), once the guard has started it.
  public func groupID() -> pid_t? {
    let out = (try? runCommand(["pgrep", "-P", String(guardProcess.pid)]).out) ?? ""
    return out.split(separator: "\n").compactMap { pid_t($0) }.first
  }

  /// Whether the command runs (started and not ended).
  public var isRunning: Bool { state() == true }

  /// Whether the command has ended (not merely not started yet).
  public var hasEnded: Bool { state() == false || guardProcess.wait(timeout: 0) != nil }

  /// nil before the guard has started the command; an ended command stays a zombie until
  /// the guard reaps it.
  private func state() -> Bool? {
    guard let pgid = groupID() else { return nil }
    guard let stat = try? String(contentsOfFile: "/proc/\(pgid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return false }
    return !stat[end...].hasPrefix(") Z")
  }

  /// The pids in the command's process group now (the command and what it started).
  public func members() -> [pid_t] {
    guard let pgid = groupID() else { return [] }
    let out = (try? runCommand(["pgrep", "-g", String(pgid)]).out) ?? ""
    return out.split(separator: "\n").compactMap { pid_t($0) }
  }

  /// The log so far.
  public func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Stops the whole group and waits for the guard to end.
  public func stop(timeout: Double = 10) {
    guard !stopped else { return }
    stopped = true
    close(lifeline)
    guardProcess.wait(timeout: timeout)
  }
}
