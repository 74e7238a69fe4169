import DisplayX11

@testable import DisplayModel

// The screen, CRTC changes, primary and DPI of the RandR-shaped reference `ProfilePlanner`.
extension ProfilePlanner {
  /// The bounding box of the lit slots, nil when the screen already has that size.
  func screen(_ slots: [Slot], _ profile: Profile) throws(ProfilePlanError) -> (width: Int, height: Int)? {
    let rects = slots.compactMap { $0.lit ? $0.rect : nil }
    let s = topology.screen
    let w = max(s.minWidth, rects.map { $0.x + $0.width }.max() ?? 0)
    let h = max(s.minHeight, rects.map { $0.y + $0.height }.max() ?? 0)
    let (maxW, maxH) = s.largest
    guard s.holds(w, h) else {
      throw .tooLarge(profile: profile.name, width: w, height: h, maxWidth: maxW, maxHeight: maxH)
    }
    return (w, h) == (s.width, s.height) ? nil : (w, h)
  }

  /// CRTCs turned off (those no lit slot keeps, driving outputs of the profile or outputs
  /// that are gone), then CRTCs set where they differ from what the server has.
  func changes(_ slots: [Slot]) -> [CrtcChange] {
    var wanted: [CrtcID: CrtcChange] = [:]
    for (i, slot) in slots.enumerated() where slot.lit && slot.sharesWith == nil {
      guard let crtc = slot.crtc, let mode = slot.mode, let rect = slot.rect else { continue }
      let outputs = [slot.output] + slots.filter { $0.sharesWith == i && $0.lit }.map(\.output)
      let fallbacks = slot.modes.dropFirst().filter { m in
        (m.width, m.height) == (mode.width, mode.height) && outputs.allSatisfy { $0.modes.contains(m.id) }
      }
      var change = CrtcChange(
        crtc: crtc.id, mode: mode.id, x: rect.x, y: rect.y, rotation: slot.rotation, outputs: outputs.map(\.id),
        fallbacks: fallbacks.map(\.id), outputName: outputs.map(\.name).joined(separator: ","))
      change.transform = slot.transform
      wanted[crtc.id] = change
    }
    let mine = Set(slots.map(\.output.id))
    var offs: [CrtcChange] = []
    var sets: [CrtcChange] = []
    for crtc in topology.crtcs {
      if let change = wanted[crtc.id] {
        if !unchanged(crtc, change, slots) { sets.append(change) }
      } else if crtc.isActive,
        crtc.outputs.allSatisfy({ mine.contains($0) || topology.output($0)?.isConnected != true })
      {
        offs.append(
          CrtcChange(
            crtc: crtc.id, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], fallbacks: [],
            outputName: crtc.outputs.compactMap { topology.output($0)?.name }.joined(separator: ",")))
      }
    }
    return offs + sets
  }

  /// Whether the server's CRTC already shows this. RandR's snapshot carries no transform,
  /// but a CRTC's size is its transformed size, so an unchanged size stands for it.
  func unchanged(_ crtc: Crtc, _ change: CrtcChange, _ slots: [Slot]) -> Bool {
    guard let size = slots.first(where: { $0.crtc?.id == crtc.id && $0.sharesWith == nil })?.size else { return false }
    return crtc.mode == change.mode && crtc.x == change.x && crtc.y == change.y && crtc.rotation == change.rotation
      && Set(crtc.outputs) == Set(change.outputs) && (crtc.width, crtc.height) == size
  }

  /// The output the profile makes primary, when it is not already. With no `primary` entry
  /// and the primary output turned off, main (`mainSlot`) takes its place.
  func primary(_ slots: [Slot], _ profile: Profile, _ warnings: inout [PlanWarning]) -> OutputID? {
    var wanted: Slot?
    if let p = slots.first(where: \.entry.primary) {
      if p.lit { wanted = p } else { warnings.append(.primaryOff(output: p.output.name)) }
    } else if let current = topology.primary, slots.contains(where: { $0.output.id == current && !$0.lit }) {
      wanted = mainSlot(slots).map { slots[$0] }
    }
    guard let id = wanted?.output.id, id != topology.primary else { return nil }
    return id
  }

  /// The profile's `dpi`, measured for `auto`: nil when it has none, or when `auto` finds no
  /// physical size (with a warning: left as is).
  func dpi(_ slots: [Slot], _ profile: Profile, _ warnings: inout [PlanWarning]) -> Double? {
    switch profile.dpi {
    case nil: return nil
    case .fixed(let value): return value
    case .auto:
      guard let measured = autoDPI(slots) else {
        warnings.append(.dpiWithoutSize(profile: profile.name))
        return nil
      }
      return measured
    }
  }

  /// The screen's physical size for `dpi`, nil when the server already has that size.
  func millimetres(_ dpi: Double, screen: (width: Int, height: Int)?) -> (width: Int, height: Int)? {
    let pixels = screen ?? (topology.screen.width, topology.screen.height)
    let mm = (
      max(1, Int((Double(pixels.width) * 25.4 / dpi).rounded())),
      max(1, Int((Double(pixels.height) * 25.4 / dpi).rounded()))
    )
    return mm == (topology.screen.mmWidth, topology.screen.mmHeight) ? nil : mm
  }

  /// Pixels per inch of the desktop on the primary (else first lit) monitor: the height of
  /// the area it shows over its physical height (the output's, else its EDID's). A size over
  /// 10 m counts as none: servers and EDIDs may report anything up to 4e9 mm.
  func autoDPI(_ slots: [Slot]) -> Double? {
    guard let slot = slots.first(where: { $0.lit && $0.entry.primary }) ?? slots.first(where: \.lit) else {
      return nil
    }
    let plausible = 1...10_000
    var mm = (slot.output.mmWidth, slot.output.mmHeight)
    if !plausible.contains(mm.0) || !plausible.contains(mm.1), let cm = slot.output.identity?.maxImageSizeCm {
      mm = (cm.width * 10, cm.height * 10)
    }
    let physical = slot.rotation.isQuarterTurn ? mm.0 : mm.1
    guard plausible.contains(physical), slot.size.height > 0 else { return nil }
    return Double(slot.size.height) * 25.4 / Double(physical)
  }
}
