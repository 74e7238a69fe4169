import CWayland
import DisplayModel
import DisplaySupport

/// One output's pixels as screencopy gave them: `width` x `height` in the output's buffer
/// (its mode, not yet turned by its transform), 0xRRGGBB each, rows top down unless
/// `yInverted`.
public struct OutputPixels: Sendable {
  public var width: Int
  public var height: Int
  public var pixels: [UInt32]
  /// The compositor's `y_invert` flag: the rows arrived bottom up.
  public var yInverted: Bool

  public init(width: Int, height: Int, pixels: [UInt32], yInverted: Bool = false) {
    (self.width, self.height, self.pixels, self.yInverted) = (width, height, pixels, yInverted)
  }
}

/// One `zwlr_screencopy_frame_v1` taken with `copy` (the picture now, where
/// `copy_with_damage` would wait for the next change), into an shm buffer of the offered
/// format; the frame and buffer go with it.
final class ScreencopyShot {
  enum State: Equatable {
    case waiting
    /// The buffer is made and `copy` asked (to be flushed).
    case copying
    case ready
    case failed(String)
  }

  private(set) var state = State.waiting
  private let shm: OpaquePointer
  private var frame: OpaquePointer?
  private var offer: (format: UInt32, width: Int, height: Int)?
  private(set) var buffer: ShmBuffer?
  private(set) var yInverted = false

  /// The formats taken: 4 bytes a pixel, red and blue either way round.
  static let formats = [
    WL_SHM_FORMAT_XRGB8888.rawValue, WL_SHM_FORMAT_ARGB8888.rawValue, WL_SHM_FORMAT_XBGR8888.rawValue,
    WL_SHM_FORMAT_ABGR8888.rawValue,
  ]

  init?(manager: OpaquePointer, shm: OpaquePointer, output: OpaquePointer) {
    guard let frame = zwlr_screencopy_manager_v1_capture_output(manager, 0, output) else { return nil }
    self.shm = shm
    self.frame = frame
    zwlr_screencopy_frame_v1_add_listener(frame, &shotListener, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    if let frame { zwlr_screencopy_frame_v1_destroy(frame) }
  }

  /// The pixels, once `ready`, as 0xRRGGBB.
  func pixels() -> OutputPixels? {
    guard state == .ready, let buffer, let offer else { return nil }
    var pixels = buffer.pixels()
    let bgr = [WL_SHM_FORMAT_XBGR8888.rawValue, WL_SHM_FORMAT_ABGR8888.rawValue].contains(offer.format)
    pixels.withUnsafeMutableBufferPointer { all in
      for i in all.indices {
        let p = all[i]
        all[i] = bgr ? (p & 0xFF) << 16 | (p & 0xFF00) | (p >> 16 & 0xFF) : p & 0xFF_FFFF
      }
    }
    return OutputPixels(width: buffer.width, height: buffer.height, pixels: pixels, yInverted: yInverted)
  }

  fileprivate func offered(format: UInt32, width: UInt32, height: UInt32, stride: UInt32) {
    guard Self.formats.contains(format), let w = Int(exactly: width), let h = Int(exactly: height),
      (1...ShmBuffer.maximumSide).contains(w), (1...ShmBuffer.maximumSide).contains(h), Int(exactly: stride) == w * 4
    else { return }
    offer = (format, w, h)
    // Before version 3 no `buffer_done` follows: the offer is complete.
    if let frame, cw_proxy_get_version(UnsafeMutableRawPointer(frame)) < 3 { copy() }
  }

  fileprivate func copy() {
    guard state == .waiting, let frame else { return }
    guard let offer else { return fail("the compositor offered no 32-bit shm buffer") }
    do {
      let made = try ShmBuffer(shm: shm, width: offer.width, height: offer.height, format: offer.format)
      buffer = made
      zwlr_screencopy_frame_v1_copy(frame, made.buffer)
      state = .copying
    } catch { fail("cannot make a buffer of \(offer.width)x\(offer.height): \(error)") }
  }

  fileprivate func flags(_ flags: UInt32) {
    yInverted = flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT.rawValue != 0
  }

  fileprivate func ready() {
    guard state == .copying else { return fail("a frame came before its buffer") }
    state = .ready
  }

  fileprivate func fail(_ why: String) {
    guard state == .waiting || state == .copying else { return }
    state = .failed(why)
  }
}

private func shot(_ data: UnsafeMutableRawPointer?) -> ScreencopyShot? {
  data.map { Unmanaged<ScreencopyShot>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private var shotListener = zwlr_screencopy_frame_v1_listener(
  buffer: { data, _, format, w, h, stride in shot(data)?.offered(format: format, width: w, height: h, stride: stride) },
  flags: { data, _, flags in shot(data)?.flags(flags) },
  ready: { data, _, _, _, _ in shot(data)?.ready() },
  failed: { data, _ in shot(data)?.fail("the compositor could not copy the output") },
  damage: { _, _, _, _, _, _ in },
  linux_dmabuf: { _, _, _, _, _ in },
  buffer_done: { data, _ in shot(data)?.copy() })

extension WaylandSurfaces {
  /// What output `name` shows now, through screencopy (without the pointer); throws naming
  /// the output when the compositor lacks screencopy, has no such output, refuses, or does
  /// not answer within `seconds`.
  public func capture(output name: String, seconds: Double = 10) throws(DisplayError) -> OutputPixels {
    guard let manager = screencopyManager else {
      throw .compositor(display: connection.socketName, problem: "it has no zwlr_screencopy_manager_v1")
    }
    guard let output = outputProxy(named: name) else { throw .unknownOutput(name: name, available: outputNames) }
    guard let shot = ScreencopyShot(manager: manager, shm: shm, output: output) else {
      throw .compositor(display: connection.socketName, problem: "cannot capture \(name)")
    }
    // The offer's answer (`copy`, asked in a handler) is sent by the wait's flush after dispatch.
    guard try connection.wait(seconds: seconds, until: { shot.state != .waiting && shot.state != .copying }) else {
      throw .compositor(display: connection.socketName, problem: "no picture of \(name) within \(seconds) s")
    }
    guard let pixels = shot.pixels() else {
      let why = if case .failed(let reason) = shot.state { reason } else { "no pixels" }
      throw .compositor(display: connection.socketName, problem: "\(name): \(why)")
    }
    return pixels
  }
}
