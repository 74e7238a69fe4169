#if canImport(Glibc)
  import Glibc
#endif

/// Replaces the file at `path` with `bytes` in one step for every reader: a temporary file
/// beside it, written and synced, then renamed over it. A symbolic link is followed (the file
/// it names is replaced, so a linked config stays linked); an existing file keeps its mode,
/// owner and group (refused when they cannot be kept, e.g. another user's file); a new one is
/// made with its directories, subject to the umask.
public func replaceFile(_ path: String, with bytes: [UInt8]) throws(SystemError) {
  let target = resolvedPath(path)
  var info = stat()
  let existing = stat(target, &info) == 0
  if !existing { try makeDirectories(parentOf: target) }
  let temporary = target + ".displayd-\(getpid())"
  let fd = FileDescriptor(
    rawValue: try systemCall("open \(temporary)") {
      open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
    })
  do throws(SystemError) {
    defer { fd.close() }
    if existing {
      // Owner before mode: chown clears set-id bits.
      if info.st_uid != geteuid() || info.st_gid != getegid() {
        try systemCall("chown \(temporary)") { fchown(fd.rawValue, info.st_uid, info.st_gid) }
      }
      try systemCall("chmod \(temporary)") { fchmod(fd.rawValue, info.st_mode & 0o7777) }
    }
    var written = 0
    while written < bytes.count {
      let n = bytes[written...].withUnsafeBytes { b in write(fd.rawValue, b.baseAddress, b.count) }
      if n == -1, errno == EINTR { continue }
      guard n > 0 else { throw .call("write \(temporary)", n == 0 ? EIO : errno) }
      written += n
    }
    try systemCall("fsync \(temporary)") { fsync(fd.rawValue) }
    try systemCall("rename \(temporary)") { rename(temporary, target) }
  } catch {
    unlink(temporary)
    throw error
  }
}

/// The file a path names once symbolic links are followed; the path itself when it names
/// nothing yet.
func resolvedPath(_ path: String) -> String {
  guard let real = realpath(path, nil) else { return path }
  defer { free(real) }
  return String(cString: real)
}

/// `mkdir -p` of the directory holding `path`.
func makeDirectories(parentOf path: String) throws(SystemError) {
  let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
  var prefix = ""
  for (i, part) in parts.enumerated() {
    prefix += (i == 0 ? "" : "/") + part
    guard !part.isEmpty, part != "." else { continue }
    if mkdir(prefix, 0o755) == -1, errno != EEXIST { throw .call("mkdir \(prefix)", errno) }
  }
}
