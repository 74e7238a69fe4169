// What the plug, CPU and memory benchmarks share: the C reference clients (built here from
// Benchmarks/c with gcc), the FIFO the hook writes its start time to, and /proc readers.
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// The benchmarks' source folder.
let benchmarksDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path

/// Builds `Benchmarks/c/NAME.c` into `dir` with gcc; returns the program's path.
func buildTool(_ name: String, into dir: String, libraries: [String] = []) throws -> String {
  let out = dir + "/" + name
  let r = try runCommand(
    ["gcc", "-O2", "-Wall", "-o", out, benchmarksDirectory + "/c/\(name).c"] + libraries.map { "-l" + $0 }, timeout: 60)
  guard r.status == 0 else { throw RigError("gcc \(name).c failed: \(r.err)") }
  return out
}

/// The C programs of the plug benchmark, built once per run.
struct Tools {
  let directory: String
  /// Appends its start time to the FIFO it is given: the hook every subject starts.
  let hookStamp: String
  /// `idle` or `hook PROGRAM ARGS`: the references that hear RandR events.
  let randrListen: String

  init() throws {
    directory = try makeTempDirectory("displayd-bench")
    hookStamp = try buildTool("hook-stamp", into: directory)
    randrListen = try buildTool("randr-listen", into: directory, libraries: ["Xrandr", "X11"])
  }
}

/// A FIFO read without blocking: one CLOCK_MONOTONIC nanosecond stamp per line.
final class StampFIFO {
  let path: String
  private let fd: Int32
  private var buffer: [UInt8] = []

  init(in directory: String) throws {
    path = directory + "/stamps"
    guard mkfifo(path, 0o600) == 0 || errno == EEXIST else { throw RigError("mkfifo \(path) failed") }
    // Read-write: the FIFO never reports end of file when a writer closes it.
    fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw RigError("cannot open \(path)") }
  }

  deinit { close(fd) }

  /// The next stamp, in seconds on the monotonic clock, or nil after `timeout` seconds.
  func next(timeout: Double) -> Double? { readStamp(fd, &buffer, timeout: timeout) }

  /// Throws away stamps already written (hooks of earlier events).
  func drain() { while next(timeout: 0) != nil {} }
}

/// Reads one line holding nanoseconds from `fd`.
func readStamp(_ fd: Int32, _ buffer: inout [UInt8], timeout: Double) -> Double? {
  let deadline = Deadline(seconds: timeout)
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    if let nl = buffer.firstIndex(of: 0x0A) {
      let text = String(decoding: buffer[..<nl], as: UTF8.self)
      buffer.removeSubrange(...nl)
      guard let ns = Int64(text) else { continue }
      return Double(ns) / 1e9
    }
    guard pollFDs([fd], timeoutMs: deadline.remainingMs).contains(0) else { return nil }
    let n = read(fd, &chunk, chunk.count)
    guard n > 0 else { return nil }
    buffer += chunk[0..<n]
  }
}

/// A /proc file's text, read to its end (its size says 0, so readers that trust the size
/// stop at the first page).
func readProcFile(_ path: String) -> String? {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[0..<n] }
  return String(decoding: bytes, as: UTF8.self)
}

/// CPU time a process has used, user plus system, all threads (living and ended), seconds.
func cpuSeconds(_ pid: pid_t) -> Double? {
  guard let text = readProcFile("/proc/\(pid)/stat"),
    let close = text.lastIndex(of: ")")
  else { return nil }
  // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
  let fields = text[text.index(after: close)...].split(separator: " ")
  guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
  return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// CPU time a process's living threads have run, seconds, to the nanosecond: the first field
/// of each `/proc/PID/task/TID/schedstat`. `/proc/PID/stat` counts in clock ticks (10 ms
/// here), too coarse for the 1 ms a plug costs; nil without schedstat.
func preciseCPUSeconds(_ pid: pid_t) -> Double? {
  guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
  var total: UInt64 = 0
  for task in tasks {
    guard let text = readProcFile("/proc/\(pid)/task/\(task)/schedstat"),
      let first = text.split(separator: " ").first, let ns = UInt64(first)
    else { return nil }
    total &+= ns
  }
  return Double(total) / 1e9
}

/// A line of /proc/PID/status in kB, e.g. `VmRSS`.
func statusKB(_ pid: pid_t, _ key: String) -> Int? {
  guard let text = readProcFile("/proc/\(pid)/status") else { return nil }
  for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
    return Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "")
  }
  return nil
}

/// The shared objects a process has mapped.
func mappedLibraries(_ pid: pid_t) -> [String] {
  guard let text = readProcFile("/proc/\(pid)/maps") else { return [] }
  let paths = text.split(separator: "\n").compactMap { line -> String? in
    guard let slash = line.firstIndex(of: "/") else { return nil }
    let path = String(line[slash...])
    return path.contains(".so") ? path : nil
  }
  return Array(Set(paths)).sorted()
}

/// Polls `condition` every `intervalMs` (finer than `eventually`) until it holds; false at the
/// deadline.
func poll(within seconds: Double, everyMs intervalMs: Int32 = 1, _ condition: () -> Bool) -> Bool {
  let deadline = Deadline(seconds: seconds)
  while !condition() {
    if deadline.passed { return false }
    _ = pollFDs([], timeoutMs: intervalMs)
  }
  return true
}

func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : percentile(values, 0.5) }
