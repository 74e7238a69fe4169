#if canImport(Glibc)
  import Glibc
#endif

/// Unbuffered writes to standard output and error: each call reaches a pipe at once, so a
/// reader of `displayd watch` sees every line as it happens.
public enum Console {
  public static func out(_ text: String) { writeAll(FileDescriptor(rawValue: 1), text) }
  public static func err(_ text: String) { writeAll(FileDescriptor(rawValue: 2), text) }

  private static func writeAll(_ fd: FileDescriptor, _ text: String) {
    var text = text
    text.withUTF8 { buf in
      var offset = 0
      while offset < buf.count {
        let rest = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buf)[offset...])
        let written = try? systemCall("write") { Glibc.write(fd.rawValue, rest.baseAddress, rest.count) }
        guard let n = written, n > 0 else { return }  // a closed pipe: nothing left to tell
        offset += n
      }
    }
  }
}
