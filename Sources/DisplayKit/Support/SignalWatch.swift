import CLinux

#if canImport(Glibc)
  import Glibc
#endif

/// Signals delivered through a `signalfd`, so an event loop polls them with its other fds
/// instead of running code in a signal handler. Blocks the signals for the process.
public final class SignalWatch {
  public let fileDescriptor: Int32
  private var mask = sigset_t()

  /// Blocks `signals` and opens a descriptor that becomes readable when one arrives.
  public init(_ signals: [Int32]) throws(SystemError) {
    sigemptyset(&mask)
    for s in signals { sigaddset(&mask, s) }
    // Block before creating the fd so no signal takes its default action in between.
    guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { throw .call("pthread_sigmask", errno) }
    let fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
    guard fd >= 0 else { throw .call("signalfd", errno) }
    fileDescriptor = fd
  }

  deinit {
    close(fileDescriptor)
    pthread_sigmask(SIG_UNBLOCK, &mask, nil)
  }

  /// The next pending signal number, or nil when none is pending.
  public func next() -> Int32? {
    var info = signalfd_siginfo()
    let n = read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size)
    return n == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
  }
}

/// Sleeps in `poll()` until one of `fds` is readable (or hung up); no timeout unless given.
/// Returns the indices of the ready descriptors.
public func waitReadable(_ fds: [Int32], timeoutMs: Int32 = -1) throws(SystemError) -> [Int] {
  var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
  while true {
    let n = poll(&pfds, nfds_t(pfds.count), timeoutMs)
    if n >= 0 { break }
    if errno != EINTR { throw .call("poll", errno) }
  }
  return pfds.indices.filter { pfds[$0].revents != 0 }
}
