import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// Where the daemon of a display keeps its control socket and its single-instance lock.
///
/// With `$XDG_RUNTIME_DIR`: `$XDG_RUNTIME_DIR/displayd/<display>.sock` and `<display>.lock`.
/// Without it there is no control socket, but the lock still is taken, in
/// `/tmp/displayd-<uid>/<display>.lock`. Each folder is made 0700 and checked before use: a
/// directory, not a symbolic link, owned by this user, mode 0700; anything else is refused.
public struct ControlLocation: Equatable, Sendable {
  public var folder: String
  /// The display's canonical name (`canonicalDisplayName`).
  public var name: String
  /// The control socket; nil without `$XDG_RUNTIME_DIR`.
  public var socket: String?
  public var lock: String { folder + "/" + name + ".lock" }
  /// `$XDG_RUNTIME_DIR`, checked too (owned by us, not writable by others) when set.
  public var runtimeDir: String?

  public init(display: String, runtimeDir: String?, uid: uid_t = geteuid()) {
    name = canonicalDisplayName(display)
    if let runtimeDir, !runtimeDir.isEmpty {
      self.runtimeDir = runtimeDir
      folder = runtimeDir + "/displayd"
      socket = folder + "/" + name + ".sock"
    } else {
      folder = "/tmp/displayd-\(uid)"
    }
  }
}

/// The same name for every spelling of one display: `:0`, `:0.0`, `unix:0`,
/// `localhost/unix:0` are all `:0`; a TCP display keeps its host (`host:1`). Never has a `/`.
public func canonicalDisplayName(_ display: String) -> String {
  guard let colon = display.lastIndex(of: ":") else { return display.replacingSlashes() }
  var host = String(display[..<colon])
  var number = Substring(display[display.index(after: colon)...])
  if let dot = number.firstIndex(of: ".") { number = number[..<dot] }
  guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt(number) else {
    return display.replacingSlashes()
  }
  var proto = ""
  if let slash = host.lastIndex(of: "/") {
    proto = host[..<slash].lowercased()
    host = String(host[host.index(after: slash)...])
  }
  let local = host.isEmpty || host.lowercased() == "unix" || proto == "unix" || proto == "local"
  return ((local ? "" : host) + ":\(n)").replacingSlashes()
}

/// An `flock`ed file held for the daemon's life: the lock, not a connect to the socket,
/// decides which of two daemons on one display runs. The kernel drops it when the process
/// ends, however it ends.
public final class InstanceLock {
  public let path: String
  private let fd: FileDescriptor

  /// Prepares the folders of `location` and takes its lock; `.alreadyRunning` when another
  /// process holds it.
  public init(_ location: ControlLocation) throws(ControlError) {
    if let runtime = location.runtimeDir { try RuntimeFolder.checkRuntimeDir(runtime) }
    try RuntimeFolder.prepare(location.folder)
    let path = location.lock
    self.path = path
    let fd: FileDescriptor
    do throws(SystemError) {
      fd = FileDescriptor(
        rawValue: try systemCall("open") { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600) })
    } catch {
      throw .setup("cannot open the lock \(path): \(String(cString: strerror(error.code)))")
    }
    var info = stat()
    guard (try? systemCall("fstat") { fstat(fd.rawValue, &info) }) != nil, info.st_mode & S_IFMT == S_IFREG,
      info.st_uid == geteuid()
    else {
      fd.close()
      throw .setup("\(path) is not a regular file of this user; refusing to use it as the lock")
    }
    do throws(SystemError) {
      try systemCall("flock") { flock(fd.rawValue, LOCK_EX | LOCK_NB) }
    } catch {
      fd.close()
      if error.code == EWOULDBLOCK { throw .alreadyRunning(path: path) }
      throw .setup("cannot lock \(path): \(String(cString: strerror(error.code)))")
    }
    self.fd = fd
  }

  deinit { fd.close() }
}

/// Checks on the folders the socket and lock live in.
enum RuntimeFolder {
  /// Makes `folder` (0700) if missing, then requires a directory, not a symbolic link, owned
  /// by this user; a mode other than 0700 (a umask, a setgid parent, an earlier chmod) is set
  /// back to 0700 through the opened folder, never through a path that could be swapped.
  static func prepare(_ folder: String) throws(ControlError) {
    do throws(SystemError) {
      try systemCall("mkdir") { mkdir(folder, 0o700) }
    } catch  where error.code != EEXIST {
      throw .setup("cannot create \(folder): \(String(cString: strerror(error.code)))")
    } catch {}
    _ = try status(folder)
    let fd: FileDescriptor
    do throws(SystemError) {
      fd = FileDescriptor(
        rawValue: try systemCall("open") { open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) })
    } catch {
      throw .setup("cannot open \(folder): \(String(cString: strerror(error.code)))")
    }
    defer { fd.close() }
    var info = stat()
    guard (try? systemCall("fstat") { fstat(fd.rawValue, &info) }) != nil, info.st_uid == geteuid() else {
      throw .setup("\(folder) changed while it was checked; refusing to use it")
    }
    guard info.st_mode & 0o7777 != 0o700 else { return }
    do throws(SystemError) {
      try systemCall("fchmod") { fchmod(fd.rawValue, 0o700) }
    } catch {
      throw .setup(
        "\(folder) has mode \(octal(info.st_mode & 0o7777)), not 0700, and cannot be changed: "
          + "\(String(cString: strerror(error.code))); run: chmod 700 \(folder)")
    }
  }

  /// `$XDG_RUNTIME_DIR`: a directory of this user that no one else may write to.
  static func checkRuntimeDir(_ folder: String) throws(ControlError) {
    let info = try status(folder)
    guard info.st_mode & 0o022 == 0 else {
      throw .setup("\(folder) ($XDG_RUNTIME_DIR) has mode \(octal(info.st_mode & 0o7777)), writable by others")
    }
  }

  private static func status(_ folder: String) throws(ControlError) -> stat {
    var info = stat()
    do throws(SystemError) {
      try systemCall("lstat") { lstat(folder, &info) }
    } catch {
      throw .setup("cannot check \(folder): \(String(cString: strerror(error.code)))")
    }
    if info.st_mode & S_IFMT == S_IFLNK { throw .setup("\(folder) is a symbolic link; refusing to use it") }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .setup("\(folder) is not a directory; refusing to use it") }
    guard info.st_uid == geteuid() else {
      throw .setup("\(folder) belongs to uid \(info.st_uid), not to uid \(geteuid()); refusing to use it")
    }
    return info
  }

  private static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
