import CXrandr
import DisplayModel

/// The intermediate levels of a mirror drawn in several passes (`MirrorPasses`): one pixmap
/// and one picture per level, kept by the connection under the mirror's source picture.
struct MirrorLevels {
  var passes: MirrorPasses
  var pixmaps: [Pixmap]
  var pictures: [Picture]
}

extension XConnection {
  /// Sets every picture of a mirror for `passes`: the root's transform and filter, and the
  /// levels between it and the window, made again only when their sizes change.
  func setPasses(_ p: MirrorPictures, _ passes: MirrorPasses) {
    let sizes = passes.levels.map { (width: $0.width, height: $0.height) }
    if let old = mirrorLevels[p.source],
      old.passes.levels.map({ [$0.width, $0.height] }) != passes.levels.map({ [$0.width, $0.height] })
    {
      freeLevels(p)
    }
    if mirrorLevels[p.source] == nil, !sizes.isEmpty {
      mirrorLevels[p.source] = createLevels(sizes, passes)
    }
    mirrorLevels[p.source]?.passes = passes
    guard let levels = mirrorLevels[p.source] else {
      return setSampling(Picture(p.source), passes.transform, passes.filter, passes.kernel)
    }
    // A picture's transform is how the pass above samples it.
    let sources = [Picture(p.source)] + levels.pictures
    for (picture, above) in zip(sources, passes.levels) { setSampling(picture, above.transform, "bilinear", 0) }
    if let top = levels.pictures.last { setSampling(top, passes.transform, passes.filter, passes.kernel) }
  }

  /// Pixmaps and pictures in the root's format; edges padded, so an odd last column or row
  /// halves with itself rather than with black.
  private func createLevels(_ sizes: [(width: Int, height: Int)], _ passes: MirrorPasses) -> MirrorLevels? {
    guard let format = XRenderFindVisualFormat(display, XDefaultVisual(display, screenNumber)) else { return nil }
    let depth = UInt32(clamping: XDefaultDepth(display, screenNumber))
    var attributes = XRenderPictureAttributes()
    attributes.repeat = RepeatPad
    var levels = MirrorLevels(passes: passes, pixmaps: [], pictures: [])
    for size in sizes {
      let pixmap = XCreatePixmap(
        display, root, UInt32(clamping: size.width), UInt32(clamping: size.height), depth)
      levels.pixmaps.append(pixmap)
      levels.pictures.append(XRenderCreatePicture(display, pixmap, format, UInt(CPRepeat), &attributes))
    }
    return levels
  }

  /// Frees a mirror's levels, if it has any.
  func freeLevels(_ p: MirrorPictures) {
    guard let levels = mirrorLevels.removeValue(forKey: p.source) else { return }
    for picture in levels.pictures { XRenderFreePicture(display, picture) }
    for pixmap in levels.pixmaps { XFreePixmap(display, pixmap) }
  }

  /// Brings the levels up to date where the window rectangle `r` reads them, from the root
  /// up; returns the picture the last pass samples.
  func updateLevels(_ p: MirrorPictures, for r: Rect) -> Picture {
    guard let levels = mirrorLevels[p.source], let top = levels.pictures.last else { return Picture(p.source) }
    let rects = levels.passes.levelRects(forWindow: r)
    guard rects.count == levels.pictures.count else { return top }
    var below = Picture(p.source)
    for (rect, picture) in zip(rects, levels.pictures) {
      let (x, y) = (Int32(clamping: rect.x), Int32(clamping: rect.y))
      XRenderComposite(
        display, PictOpSrc, below, 0, picture, x, y, 0, 0, x, y, UInt32(clamping: rect.width),
        UInt32(clamping: rect.height))
      below = picture
    }
    return top
  }

  /// Sets how a picture is sampled when it is a source.
  func setSampling(_ picture: Picture, _ matrix: [Double], _ name: String, _ kernel: Int) {
    let m = matrix.map { XFixed(MirrorGeometry.fixed($0)) }
    guard m.count == 9 else { return }
    var xform = XTransform(matrix: ((m[0], m[1], m[2]), (m[3], m[4], m[5]), (m[6], m[7], m[8])))
    XRenderSetPictureTransform(display, picture, &xform)
    if name == "convolution", kernel > 0 {
      // A box: kernel×kernel equal weights, as [width, height, weights...] in fixed point.
      let side = XFixed(MirrorGeometry.fixed(Double(kernel)))
      var params = [side, side]
      params += [XFixed](repeating: XFixed(65536 / (kernel * kernel)), count: kernel * kernel)
      XRenderSetPictureFilter(display, picture, name, &params, Int32(params.count))
    } else {
      XRenderSetPictureFilter(display, picture, name, nil, 0)
    }
  }
}
