import CWayland
import DisplayModel
import DisplayPorts

/// One output mirrored into a subsurface of a layer surface: `zwlr_screencopy_manager_v1`
/// frames of the source taken with `copy_with_damage` (the compositor answers only once the
/// source changed, so a still source costs nothing), into shm buffers shown as they come and
/// scaled by the compositor through `wp_viewporter` to the geometry's content rectangle
/// (the layer surface's background shows as the bars of `fit`). Each stream binds a
/// screencopy manager of its own (see `SurfaceGlobals.bindScreencopy`).
final class MirrorStream {
  let source: OutputState
  let request: MirrorRequest
  private let manager: OpaquePointer
  private let shm: OpaquePointer
  private let surface: OpaquePointer
  private let subsurface: OpaquePointer
  private let viewport: OpaquePointer
  private var frame: OpaquePointer?
  /// At most three: one shown, one the compositor may still read, one being copied into.
  private var buffers: [ShmBuffer] = []
  private var copying: ShmBuffer?
  private var offer: (format: UInt32, width: Int, height: Int)?
  private var yInverted = false
  private var stopped = false
  /// Called after each frame shown.
  var shown: (() -> Void)?
  /// Called once when the compositor cannot capture the source (it stops).
  var failed: (() -> Void)?

  init?(_ request: MirrorRequest, from source: OutputState, into parent: OpaquePointer, globals: SurfaceGlobals) {
    guard globals.screencopy != nil, let subcompositor = globals.subcompositor, let manager = globals.bindScreencopy()
    else { return nil }
    guard let surface = wl_compositor_create_surface(globals.compositor) else {
      Self.destroy(manager: manager)
      return nil
    }
    guard let subsurface = wl_subcompositor_get_subsurface(subcompositor, surface, parent) else {
      wl_surface_destroy(surface)
      Self.destroy(manager: manager)
      return nil
    }
    guard let viewport = wp_viewporter_get_viewport(globals.viewporter, surface) else {
      // The subsurface goes before the surface it is the role of.
      wl_subsurface_destroy(subsurface)
      wl_surface_destroy(surface)
      Self.destroy(manager: manager)
      return nil
    }
    self.request = request
    self.source = source
    self.manager = manager
    self.shm = globals.shm
    self.surface = surface
    self.subsurface = subsurface
    self.viewport = viewport
    let content = request.geometry.content
    // Applied with the parent's next commit; desync lets frames commit on their own.
    wl_subsurface_set_position(subsurface, Int32(clamping: content.x), Int32(clamping: content.y))
    wl_subsurface_set_desync(subsurface)
    capture()
  }

  deinit { stop() }

  /// Releases the frame, the subsurface and every buffer, once.
  func stop() {
    guard !stopped else { return }
    stopped = true
    if let frame { zwlr_screencopy_frame_v1_destroy(frame) }
    frame = nil
    wp_viewport_destroy(viewport)
    wl_subsurface_destroy(subsurface)
    wl_surface_destroy(surface)
    Self.destroy(manager: manager)
    buffers = []
    copying = nil
  }

  /// The stream's own manager.
  private static func destroy(manager: OpaquePointer) { destroyScreencopyManager(manager) }

  private func capture() {
    guard !stopped else { return }
    offer = nil
    frame = zwlr_screencopy_manager_v1_capture_output(manager, request.cursor ? 1 : 0, source.proxy)
    if let frame {
      zwlr_screencopy_frame_v1_add_listener(frame, &frameListener, Unmanaged.passUnretained(self).toOpaque())
    }
  }

  /// The compositor's offer of an shm buffer: taken when it is 4 bytes a pixel, packed.
  fileprivate func offered(format: UInt32, width: UInt32, height: UInt32, stride: UInt32) {
    let formats = [WL_SHM_FORMAT_XRGB8888.rawValue, WL_SHM_FORMAT_ARGB8888.rawValue]
    guard formats.contains(format), let w = Int(exactly: width), let h = Int(exactly: height),
      (1...ShmBuffer.maximumSide).contains(w), (1...ShmBuffer.maximumSide).contains(h), Int(exactly: stride) == w * 4
    else { return }
    offer = (format, w, h)
    // Before version 3 no `buffer_done` follows: the offer is complete.
    if let frame, cw_proxy_get_version(UnsafeMutableRawPointer(frame)) < 3 { copy() }
  }

  fileprivate func copy() {
    guard let frame, let offer else { return fail() }
    buffers.removeAll { $0.width != offer.width || $0.height != offer.height }
    var free = buffers.first { !$0.isBusy }
    if free == nil, buffers.count < 3 {
      free = try? ShmBuffer(shm: shm, width: offer.width, height: offer.height, format: offer.format)
      free.map { buffers.append($0) }
    }
    guard let free else { return fail() }
    copying = free
    zwlr_screencopy_frame_v1_copy_with_damage(frame, free.buffer)
  }

  fileprivate func flags(_ flags: UInt32) {
    yInverted = flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT.rawValue != 0
  }

  /// A frame arrived: shown at once, and the next capture asked for (answered on damage).
  fileprivate func ready() {
    guard let buffer = copying else { return fail() }
    if let frame { zwlr_screencopy_frame_v1_destroy(frame) }
    frame = nil
    copying = nil
    let crop = Self.crop(request.geometry, bufferWidth: buffer.width, bufferHeight: buffer.height)
    wp_viewport_set_source(viewport, crop.x, crop.y, crop.width, crop.height)
    let content = request.geometry.content
    wp_viewport_set_destination(
      viewport, Int32(clamping: max(1, content.width)), Int32(clamping: max(1, content.height)))
    wl_surface_set_buffer_transform(
      surface, Int32(yInverted ? WL_OUTPUT_TRANSFORM_FLIPPED_180.rawValue : WL_OUTPUT_TRANSFORM_NORMAL.rawValue))
    wl_surface_attach(surface, buffer.buffer, 0, 0)
    wl_surface_damage_buffer(surface, 0, 0, Int32(buffer.width), Int32(buffer.height))
    wl_surface_commit(surface)
    buffer.isBusy = true
    shown?()
    capture()
  }

  fileprivate func fail() {
    guard !stopped else { return }
    stop()
    failed?()
  }

  /// The part of the buffer the content rectangle shows (all of it but for `fill`), in
  /// wl_fixed buffer pixels, kept inside the buffer (outside is a protocol error).
  static func crop(_ g: MirrorGeometry, bufferWidth: Int, bufferHeight: Int) -> (
    x: Int32, y: Int32, width: Int32, height: Int32
  ) {
    let c = g.content
    let perX = Double(bufferWidth) / Double(max(1, g.source.width))
    let perY = Double(bufferHeight) / Double(max(1, g.source.height))
    func fixed(_ v: Double, _ limit: Int) -> Int32 {
      Int32((min(max(v, 0), Double(limit)) * 256).rounded(.down))
    }
    let x0 = fixed((Double(c.x) - g.originX) / g.scaleX * perX, bufferWidth)
    let y0 = fixed((Double(c.y) - g.originY) / g.scaleY * perY, bufferHeight)
    let x1 = fixed((Double(c.x + c.width) - g.originX) / g.scaleX * perX, bufferWidth)
    let y1 = fixed((Double(c.y + c.height) - g.originY) / g.scaleY * perY, bufferHeight)
    return (x0, y0, max(1, x1 - x0), max(1, y1 - y0))
  }
}

private func stream(_ data: UnsafeMutableRawPointer?) -> MirrorStream? {
  data.map { Unmanaged<MirrorStream>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private var frameListener = zwlr_screencopy_frame_v1_listener(
  buffer: { data, _, format, w, h, stride in stream(data)?.offered(format: format, width: w, height: h, stride: stride)
  },
  flags: { data, _, flags in stream(data)?.flags(flags) },
  ready: { data, _, _, _, _ in stream(data)?.ready() },
  failed: { data, _ in stream(data)?.fail() },
  damage: { _, _, _, _, _, _ in },
  linux_dmabuf: { _, _, _, _, _ in },
  buffer_done: { data, _ in stream(data)?.copy() })
