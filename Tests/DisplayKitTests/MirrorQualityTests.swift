import CXrandr
import DisplayKit
import DisplayModel
import DisplayX11
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// A grey image, one byte a pixel, row after row.
struct GreyImage {
  var width: Int
  var height: Int
  var pixels: [UInt8]

  /// Netpbm P5, what ImageMagick reads and writes.
  var pgm: Data { Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels) }

  init(width: Int, height: Int, fill: UInt8) {
    (self.width, self.height) = (width, height)
    pixels = [UInt8](repeating: fill, count: width * height)
  }

  init(pgm data: Data) throws {
    // Header: "P5", width, height, maxval, each after whitespace, then one byte of it.
    var fields: [Int] = []
    var i = data.startIndex + 2
    while fields.count < 3 {
      while i < data.endIndex, data[i] == 0x20 || data[i] == 0x0a { i += 1 }
      var value = 0
      while i < data.endIndex, (0x30...0x39).contains(data[i]) {
        value = value * 10 + Int(data[i] - 0x30)
        i += 1
      }
      fields.append(value)
    }
    guard data.prefix(2) == Data("P5".utf8), fields[2] == 255, data.endIndex - (i + 1) == fields[0] * fields[1] else {
      throw RigError("not an 8-bit P5 image: \(fields)")
    }
    (width, height, pixels) = (fields[0], fields[1], [UInt8](data[(i + 1)...]))
  }

  subscript(x: Int, y: Int) -> UInt8 {
    get { pixels[y * width + x] }
    set { pixels[y * width + x] = newValue }
  }
}

/// Runs ImageMagick's `convert` on a grey image: `arguments` between the input and the output.
func convert(_ image: GreyImage?, _ arguments: [String]) throws -> GreyImage {
  let dir = try makeTempDirectory("displayd-quality")
  defer { try? FileManager.default.removeItem(atPath: dir) }
  var argv = ["convert"]
  if let image {
    try image.pgm.write(to: URL(fileURLWithPath: dir + "/in.pgm"))
    argv.append(dir + "/in.pgm")
  }
  let r = try runCommand(argv + arguments + ["-depth", "8", dir + "/out.pgm"], timeout: 30)
  guard r.status == 0 else { throw RigError("convert failed: \(r.err)") }
  return try GreyImage(pgm: try Data(contentsOf: URL(fileURLWithPath: dir + "/out.pgm")))
}

/// What makes a box filter and a plain bilinear one differ: small text, 1-px lines at uneven
/// spacings (vertical, horizontal, diagonal), and checkerboards of 1, 2 and 3 px cells.
func qualityPattern() throws -> GreyImage {
  var image = GreyImage(width: 1920, height: 1080, fill: 255)
  let lines = (0..<24).map { "The quick brown fox jumps over the lazy dog 0123456789 (\($0)) ~!@#$&*[]{};:,.<>/?|" }
  let text = try convert(
    nil,
    [
      "-size", "960x400", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "11", "-fill", "black", "-annotate",
      "+4+12",
      lines.joined(separator: "\n"),
    ])
  for y in 0..<400 {
    for x in 0..<960 { (image[x, y], image[x + 960, y]) = (text[x, y], text[x, y]) }
  }
  for y in 860..<1060 {
    for x in 0..<900 { image[x + 1000, y] = text[x, y - 860] }
  }
  var (x, i) = (0, 0)
  while x < 1920 {
    for y in 420..<620 { image[x, y] = 0 }
    (i, x) = (i + 1, x + 3 + (i + 1) * 7 % 5)
  }
  var y = 640
  i = 0
  while y < 840 {
    for x in 0..<960 { image[x, y] = 0 }
    (i, y) = (i + 1, y + 3 + (i + 1) * 5 % 4)
  }
  for d in stride(from: 0, to: 400, by: 6) {
    for t in 0..<200 where 960 + d + t < 1920 { image[960 + d + t, 640 + t] = 0 }
  }
  for (b, cell) in [1, 2, 3].enumerated() {
    for y in 0..<200 {
      for x in 0..<320 { image[b * 330 + x, 860 + y] = (x / cell + y / cell) % 2 == 0 ? 0 : 255 }
    }
  }
  return image
}

/// Peak signal-to-noise ratio of `a` against `b`, in dB, over the pixels `keep` accepts.
func psnr(_ a: GreyImage, _ b: GreyImage, keep: (Int, Int) -> Bool = { _, _ in true }) -> Double {
  var (sum, count) = (0.0, 0)
  for y in 0..<min(a.height, b.height) {
    for x in 0..<min(a.width, b.width) where keep(x, y) {
      let d = Double(a[x, y]) - Double(b[x, y])
      sum += d * d
      count += 1
    }
  }
  guard count > 0, sum > 0 else { return .infinity }
  return 10 * log10(255 * 255 / (sum / Double(count)))
}

extension XInspector {
  /// An override-redirect window over `rect` showing `image` (grey), then a square of
  /// `marker` at its bottom-right corner, drawn last: once a mirror shows the marker it has
  /// composited everything before it.
  func show(_ image: GreyImage, at rect: XInspector.Rect, marker: UInt32) -> UInt {
    let window = quadrants(rect, [0, 0, 0, 0])
    var words = image.pixels.map { UInt32($0) * 0x010101 }
    let gc = XCreateGC(display, Window(window), 0, nil)
    defer { XFreeGC(display, gc) }
    words.withUnsafeMutableBytes { bytes in
      guard
        let ximage = XCreateImage(
          display, XDefaultVisual(display, XDefaultScreen(display)), 24, ZPixmap, 0,
          bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(image.width), UInt32(image.height), 32, 0)
      else { return }
      XPutImage(display, Window(window), gc, ximage, 0, 0, 0, 0, UInt32(image.width), UInt32(image.height))
      ximage.pointee.data = nil
      XFree(ximage)
    }
    XSync(display, 0)
    fill(window, XInspector.Rect(x: rect.width - 64, y: rect.height - 64, width: 64, height: 64), marker)
    return window
  }

  /// The screen's green channel over a root rectangle.
  func capture(_ rect: XInspector.Rect) -> GreyImage? {
    guard
      let image = XGetImage(
        display, root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), UInt(bitPattern: -1),
        ZPixmap)
    else { return nil }
    defer { _ = image.pointee.f.destroy_image(image) }
    var grey = GreyImage(width: rect.width, height: rect.height, fill: 0)
    for y in 0..<rect.height {
      for x in 0..<rect.width {
        grey[x, y] = UInt8(truncatingIfNeeded: image.pointee.f.get_pixel(image, Int32(x), Int32(y)) >> 8)
      }
    }
    return grey
  }

  func destroy(_ window: UInt) {
    XDestroyWindow(display, Window(window))
    XSync(display, 0)
  }
}

extension XServerTests {
  /// The mirror's pixels against ImageMagick's box resize of the same source, by PSNR: `auto`
  /// must keep the box filter's quality (the convolution, `box`) and beat plain `bilinear`.
  @Suite struct MirrorQuality {
    typealias Scores = [MirrorFilter: Double]

    /// Mirrors `pattern` from a 1920x1080 main monitor onto a `width`x`height` one (`fit`)
    /// with each filter, one daemon after another, and scores what the mirror shows.
    func scores(
      _ server: TestXServer, _ vnc: VNCClient, _ x: XInspector, _ pattern: GreyImage, width: Int, height: Int,
      filters: [MirrorFilter]
    ) throws -> Scores {
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, width, height)]))
      let g = MirrorGeometry(
        source: Rect(x: 0, y: 0, width: 1920, height: 1080), width: width, height: height, scale: .fit)
      let c = g.content
      let reference = try convert(pattern, ["-filter", "box", "-resize", "\(c.width)x\(c.height)!"])
      // The marker's square in content coordinates, grown for the filters' reach.
      let (m0x, m0y) = (Int(1856 * g.scaleX) - 3, Int(1016 * g.scaleY) - 3)
      var scores: Scores = [:]
      for (run, filter) in filters.enumerated() {
        let daemon = try DaemonProcess(
          display: server.display,
          config: "{ defaults: { content: 'mirror', mirror: { filter: '\(filter.rawValue)', cursor: false } } }",
          logLevel: "info")
        defer {
          daemon.child.signal(SIGTERM)
          _ = daemon.child.wait()
          _ = eventually(within: 2) { x.displaydWindows().isEmpty }
        }
        guard eventually(within: 2, { x.displaydWindows().count == 1 }), let w = x.displaydWindows().first else {
          throw RigError("no mirror window with \(filter)")
        }
        let marker = UInt32(0x20_40_60 + run * 0x10_08_04)
        let source = x.show(pattern, at: .init(x: 0, y: 0, width: 1920, height: 1080), marker: marker)
        defer { x.destroy(source) }
        let (mx, my) = (w.rect.x + c.x + Int(1888 * g.scaleX), w.rect.y + c.y + Int(1048 * g.scaleY))
        #expect(eventually(within: 3) { x.pixel(x: mx, y: my) == marker }, "\(filter): the mirror shows the marker")
        let shot = try #require(
          x.capture(.init(x: w.rect.x + c.x, y: w.rect.y + c.y, width: c.width, height: c.height)))
        scores[filter] = psnr(shot, reference) { px, py in px < m0x || py < m0y }
        daemon.drain()
      }
      let line = filters.map { "\($0.rawValue) \(String(format: "%.2f", scores[$0] ?? 0)) dB" }
      print("mirror quality 1920x1080 -> \(width)x\(height) (scale \(String(format: "%.3f", g.scaleX))): \(line)")
      return scores
    }

    /// Below 0.5 `auto` holds a pixmap and a picture per level: made with the mirror, made
    /// again (not added) when the target's size changes them, gone with the mirror.
    @Test func theLevelsGoWithTheMirrorAndAreRemadeOnResize() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let x = try XInspector(server.display)
      let daemon = try DaemonProcess(
        display: server.display, config: "{ defaults: { content: 'mirror', mirror: { cursor: false } } }",
        logLevel: "info")
      let baseline = try x.resources(ofPid: daemon.child.pid)
      let main = try #require(vnc.screens.first?.id)
      func held() -> (pixmaps: Int, pictures: Int) {
        let r = (try? x.resources(ofPid: daemon.child.pid)) ?? [:]
        return (r["PIXMAP", default: 0], r["PICTURE", default: 0])
      }
      let base = (baseline["PIXMAP", default: 0], baseline["PICTURE", default: 0])
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 640, 480)]))
      // 1/3: one level; the root's and the window's pictures, and the level's.
      #expect(eventually(within: 2) { held() == (base.0 + 1, base.1 + 3) }, "one level: \(held()) over \(base)")
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 800, 600)]))
      #expect(eventually(within: 2) { x.displaydWindows().first?.rect.width == 800 })
      daemon.settle(quiet: 0.2)
      #expect(held() == (base.0 + 1, base.1 + 3), "a new size: the level remade, not added: \(held())")
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))
      let clean = eventually(within: 2) { (try? x.resources(ofPid: daemon.child.pid)) == baseline }
      #expect(clean, "back to \(baseline): \((try? x.resources(ofPid: daemon.child.pid)) ?? [:])")
    }

    @Test func autoKeepsTheBoxQualityAndBeatsBilinear() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let x = try XInspector(server.display)
      let pattern = try qualityPattern()
      for (width, height) in [(1280, 1024), (800, 600), (640, 480)] {
        let s = try scores(server, vnc, x, pattern, width: width, height: height, filters: [.auto, .box, .bilinear])
        let (auto, box, bilinear) = (s[.auto] ?? 0, s[.box] ?? 0, s[.bilinear] ?? 0)
        // At exactly 1/3 the convolution is an exact 3-pixel box, as ImageMagick's is; auto's
        // 2:1 halving weights are pixman's nearest 1/128ths (42/128, 86/128), a grey level
        // or so off at the sharpest edges: above 50 dB, where no eye tells them apart.
        let floor = min(box - 0.5, 50)
        #expect(auto >= floor, "\(width)x\(height): auto \(auto) dB within 0.5 dB of the box filter's \(box) dB")
        #expect(
          auto >= bilinear + 1, "\(width)x\(height): auto \(auto) dB at least 1 dB over bilinear's \(bilinear) dB")
      }
    }
  }
}

/// The passes `auto` plans, without a server: where samples land and what a damaged window
/// area makes each level redraw.
@Suite struct MirrorPassesTests {
  let source = Rect(x: 0, y: 0, width: 1920, height: 1080)

  func near(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }

  @Test func twoThirdsIsOnePassWithItsFirstSampleOnACorner() {
    let p = MirrorGeometry(source: source, width: 1280, height: 1024, scale: .fit).passes(.auto)
    #expect(p.levels.isEmpty && p.filter == "bilinear")
    // Window x 0 samples root 0.75 + 0.25 = 1: the corner of pixels 0 and 1.
    #expect(near(p.transform, [1.5, 0, 0.25, 0, 1.5, -228 + 0.25, 0, 0, 1]), "\(p.transform)")
    let box = MirrorGeometry(source: source, width: 1280, height: 1024, scale: .fit).passes(.box)
    #expect(box.levels.isEmpty && box.filter == "convolution" && box.kernel == 2)
  }

  @Test func oneThirdResamplesByTwoThirdsThenHalvesMovedBack() {
    let p = MirrorGeometry(source: source, width: 640, height: 480, scale: .fit).passes(.auto)
    #expect(p.levels.count == 1)
    let level = p.levels[0]
    #expect(level.width == 1280 && level.height == 720)
    #expect(near(level.transform, [1.5, 0, 0.25, 0, 1.5, 0.25, 0, 0, 1]))
    // Back by 1/6 of a level pixel: samples at 2/3 of the way, weights 2:1 over a pair
    // that covers 2 + 1 source pixels.
    #expect(near(p.transform, [2, 0, -1.0 / 6, 0, 2, -120 - 1.0 / 6, 0, 0, 1]), "\(p.transform)")
  }

  @Test func aQuarterIsTwoExactHalvings() {
    let p = MirrorGeometry(source: Rect(x: 1920, y: 0, width: 1920, height: 1080), width: 480, height: 270, scale: .fit)
      .passes(.auto)
    #expect(p.levels.map { [$0.width, $0.height] } == [[960, 540]])
    #expect(near(p.levels[0].transform, [2, 0, 1920, 0, 2, 0, 0, 0, 1]), "the source's place on the root")
    #expect(near(p.transform, [2, 0, 0, 0, 2, 0, 0, 0, 1]))
  }

  @Test func stretchHalvesOnlyTheAxisThatNeedsIt() {
    let p = MirrorGeometry(source: source, width: 400, height: 1000, scale: .stretch).passes(.auto)
    // x: 400/1920 = 0.208, two halvings after a ratio of 0.833; y: 0.926, one pass then copies.
    #expect(p.levels.map { [$0.width, $0.height] } == [[1600, 1000], [800, 1000]])
    #expect(p.levels[1].transform[4] == 1 && p.transform[4] == 1 && p.transform[0] == 2)
  }

  @Test func aDamagedWindowAreaRedrawsOnlyWhatItReadsOnEachLevel() {
    let p = MirrorGeometry(source: source, width: 480, height: 270, scale: .fit).passes(.auto)
    let rects = p.levelRects(forWindow: Rect(x: 100, y: 100, width: 10, height: 10))
    #expect(rects.count == 1)
    let r = rects[0]
    // Window 100..<110 reads level pixels 200..<220, a pixel more each side for rounding.
    #expect(r.x <= 200 && r.x + r.width >= 220 && r.width <= 26 && r.y <= 200 && r.height <= 26, "\(r)")
    #expect(p.levelRects(forWindow: Rect(x: 5000, y: 0, width: 10, height: 10)).isEmpty, "outside: nothing")
    let edge = p.levelRects(forWindow: Rect(x: 470, y: 260, width: 10, height: 10))[0]
    #expect(edge.x + edge.width == 960 && edge.y + edge.height == 540, "clipped to the level: \(edge)")
  }
}
