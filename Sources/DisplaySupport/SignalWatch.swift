import CLinux

#if canImport(Glibc)
  import Glibc
#endif

/// Signals delivered through a `signalfd`, so an event loop polls them with its other fds
/// instead of running code in a signal handler. Blocks the signals for the process.
public final class SignalWatch {
  public let fileDescriptor: FileDescriptor
  private var mask = sigset_t()

  /// Blocks `signals` and opens a descriptor that becomes readable when one arrives.
  public init(_ signals: [Int32]) throws(SystemError) {
    var mask = sigset_t()
    sigemptyset(&mask)
    for s in signals { sigaddset(&mask, s) }
    // Block before creating the fd so no signal takes its default action in between.
    // (pthread_sigmask returns its error rather than setting errno.)
    let rc = pthread_sigmask(SIG_BLOCK, &mask, nil)
    guard rc == 0 else { throw .call("pthread_sigmask", rc) }
    self.mask = mask
    fileDescriptor = FileDescriptor(
      rawValue: try systemCall("signalfd") { signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) })
  }

  deinit {
    fileDescriptor.close()
    pthread_sigmask(SIG_UNBLOCK, &mask, nil)
  }

  /// The next pending signal number, or nil when none is pending.
  public func next() -> Int32? {
    var info = signalfd_siginfo()
    return fileDescriptor.read(into: &info) ? Int32(info.ssi_signo) : nil
  }
}
