import DisplayModel

/// One apply of a plan, under the server grab the caller holds: the steps in order, what each
/// changed, and the way back to the snapshot when one fails.
final class PlanRun {
  private let connection: XConnection
  private let plan: Plan
  private let topology: Topology
  private let resources: ScreenResources
  /// The screen before: pixels as the server has them, millimetres from the snapshot (RandR
  /// has no request that reads them back; they come with the connection and with events).
  private let before: ScreenGeometry
  /// The screen as this run left it so far.
  private var screen: ScreenGeometry
  private var outcome = ApplyOutcome()
  /// CRTCs set or turned off (or tried), in order: what a rollback restores.
  private var touched: [CrtcID] = []
  /// Transforms read from the server, by CRTC.
  private var transforms: [CrtcID: FixedTransform] = [:]
  /// Transforms sent, and the ones they replaced.
  private var sentTransforms: [CrtcID: FixedTransform] = [:]
  private var oldTransforms: [CrtcID: FixedTransform] = [:]
  /// The primary before, once one was sent.
  private var primaryBefore: OutputID??
  /// The custom modes this run makes.
  private let maker: ModeMaker

  init(_ connection: XConnection, plan: Plan, topology: Topology, resources: ScreenResources) {
    self.connection = connection
    self.plan = plan
    self.topology = topology
    self.resources = resources
    let size = connection.rootSize() ?? (topology.screen.width, topology.screen.height)
    var mm = (width: topology.screen.mmWidth, height: topology.screen.mmHeight)
    if mm.width <= 0 || mm.height <= 0 {
      mm = ApplyGeometry.keepingDPI(width: size.width, height: size.height, fromHeight: 0, fromMMHeight: 0)
    }
    before = ScreenGeometry(width: size.width, height: size.height, mmWidth: mm.width, mmHeight: mm.height)
    screen = before
    maker = ModeMaker(connection, resources, wanted: plan.customModes)
  }

  /// Runs every step; stops at the first failure and rolls back.
  func run() -> ApplyOutcome {
    let changes = changesToSend()
    guard offerTransforms(changes), turnOffFirst(changes), grow(), setCrtcs(changes), finishScreen(),
      setPrimary(), readBack(changes)
    else {
      rollBack()
      outcome.notRestored += maker.undo(keeping: [])
      return outcome
    }
    outcome.warnings += maker.undo(keeping: Set(outcome.applied.compactMap(\.mode)))
    if plan.screen != nil || plan.screenMillimetres != nil { outcome.screen = (screen.width, screen.height) }
    return outcome
  }

  // MARK: The steps

  /// The plan's changes minus those already in force (listed in `unchanged`): a plan that is
  /// in force sends nothing.
  private func changesToSend() -> [CrtcChange] {
    plan.changes.filter { change in
      let now = topology.crtc(change.crtc).map(CrtcState.init)
      let inForce =
        now == CrtcState(change, mode: change.mode)
        && (change.mode == nil
          || (wantedTransform(change).map { currentTransform(change.crtc).sameEffect(as: $0) } ?? false))
      if inForce { outcome.unchanged.append(change) }
      return !inForce
    }
  }

  /// Sends the transforms that change, before anything visible: they stay pending until the
  /// CRTC is set. When the server refuses one (BadValue: no transform support) nothing else
  /// is done: the accepted ones are put back and the outcome lists the refusing CRTCs.
  private func offerTransforms(_ changes: [CrtcChange]) -> Bool {
    for change in changes where change.mode != nil {
      guard let wanted = wantedTransform(change) else {
        refuseTransform(change, "the matrix \(change.transform.matrix) does not fit 16.16 fixed point")
        continue
      }
      let old = currentTransform(change.crtc)
      guard !old.sameEffect(as: wanted) else { continue }
      if let error = connection.setCrtcTransform(change.crtc, wanted) {
        refuseTransform(change, error)
      } else {
        oldTransforms[change.crtc] = old
        sentTransforms[change.crtc] = wanted
      }
    }
    guard outcome.transformRefused.isEmpty else {
      for (crtc, old) in oldTransforms { _ = connection.setCrtcTransform(crtc, old) }
      oldTransforms = [:]
      return false
    }
    return true
  }

  /// Turns off the CRTCs the plan turns off, and those whose outputs change (an output can be
  /// on one CRTC only). The screen then grows to the union of old and new, so no CRTC that
  /// stays lit has to go off for lack of room.
  private func turnOffFirst(_ changes: [CrtcChange]) -> Bool {
    for change in changes {
      let now = topology.crtc(change.crtc)
      let moving = now.map { $0.isActive && Set($0.outputs) != Set(change.outputs) } ?? false
      guard change.mode == nil || moving else { continue }
      touched.append(change.crtc)
      if case .failed(let why) = setCrtc(change.crtc, nil, x: 0, y: 0, rotation: .normal, outputs: []) {
        outcome.failed.append((change, "turning off: \(why)"))
        return false
      }
      if change.mode == nil { outcome.applied.append((change, nil)) }
    }
    return true
  }

  /// Grows the screen to hold both the old and the new layout, at the old DPI.
  private func grow() -> Bool {
    let target = plan.screen ?? (screen.width, screen.height)
    return resize(width: max(screen.width, target.width), height: max(screen.height, target.height))
  }

  /// Sets every CRTC that is lit afterwards, trying the fallback modes in turn.
  private func setCrtcs(_ changes: [CrtcChange]) -> Bool {
    for change in changes where change.mode != nil {
      touched.append(change.crtc)
      switch setWithFallbacks(change) {
      case .success(let mode): outcome.applied.append((change, mode))
      case .failure(let reason):
        outcome.failed.append((change, reason.text))
        return false
      }
    }
    return true
  }

  /// Shrinks the screen to the plan's size and sets its millimetres: the plan's, else the old
  /// ones when the size is the same, else the old DPI kept.
  private func finishScreen() -> Bool {
    let target = plan.screen ?? (screen.width, screen.height)
    var mm: (width: Int, height: Int) = (before.mmWidth, before.mmHeight)
    if let wanted = plan.screenMillimetres {
      mm = wanted
    } else if target != (before.width, before.height) {
      mm = ApplyGeometry.keepingDPI(
        width: target.width, height: target.height, fromHeight: before.height, fromMMHeight: before.mmHeight)
    }
    return setScreen(ScreenGeometry(width: target.width, height: target.height, mmWidth: mm.width, mmHeight: mm.height))
  }

  /// Makes the plan's primary output the RandR primary, unless it already is.
  private func setPrimary() -> Bool {
    guard let wanted = plan.primary else { return true }
    let now = connection.currentPrimary()
    guard now != wanted else { return true }
    primaryBefore = .some(now)
    if let error = connection.setPrimary(wanted) {
      outcome.problems.append("primary \(name(of: wanted)): \(error)")
      return false
    }
    return true
  }

  /// Reads back what was set and compares it with the plan.
  private func readBack(_ changes: [CrtcChange]) -> Bool {
    var differences: [String] = []
    for (change, mode) in outcome.applied {
      let wanted = CrtcState(change, mode: mode)
      let now = connection.crtcState(change.crtc, resources)
      if now != wanted {
        differences.append("\(change.outputName): read back \(describe(now)), planned \(describe(wanted))")
      }
    }
    for (crtc, wanted) in sentTransforms {
      if let now = connection.crtcTransform(crtc), !now.sameEffect(as: wanted) {
        differences.append("CRTC \(crtc): transform read back \(now.values), planned \(wanted.values)")
      }
    }
    if let size = connection.rootSize(), size != (screen.width, screen.height) {
      differences.append("screen read back \(size.width)x\(size.height), planned \(screen.width)x\(screen.height)")
    }
    if primaryBefore != nil, let wanted = plan.primary, connection.currentPrimary() != wanted {
      differences.append(
        "primary read back \(connection.currentPrimary().map(name(of:)) ?? "none"), planned \(name(of: wanted))")
    }
    outcome.problems += differences
    return differences.isEmpty
  }

  // MARK: Back to the snapshot

  /// Puts back what this run changed, as the snapshot had it (CRTCs, transforms, screen size
  /// and millimetres, primary), then reads it back: what did not come back is listed in
  /// `notRestored`.
  private func rollBack() {
    let crtcs = touched.reduce(into: [CrtcID]()) { if !$0.contains($1) { $0.append($1) } }
    for id in crtcs { _ = setCrtc(id, nil, x: 0, y: 0, rotation: .normal, outputs: []) }
    if !resize(width: max(screen.width, before.width), height: max(screen.height, before.height)) {
      outcome.notRestored.append("screen: could not make room for the old layout")
    }
    for (crtc, old) in oldTransforms {
      if let error = connection.setCrtcTransform(crtc, old) {
        outcome.notRestored.append("CRTC \(crtc) transform: \(error)")
      }
    }
    for id in crtcs {
      guard let old = topology.crtc(id), old.isActive else { continue }
      if case .failed(let why) = setCrtc(id, old.mode, x: old.x, y: old.y, rotation: old.rotation, outputs: old.outputs)
      {
        outcome.notRestored.append("CRTC \(id): \(why)")
      }
    }
    if !setScreen(before) { outcome.notRestored.append("screen \(before.width)x\(before.height): refused") }
    if let primary = primaryBefore, let error = connection.setPrimary(primary) {
      outcome.notRestored.append("primary: \(error)")
    }
    verifyRestored(crtcs)
  }

  private func verifyRestored(_ crtcs: [CrtcID]) {
    for id in crtcs {
      let wanted =
        topology.crtc(id).map(CrtcState.init) ?? CrtcState(mode: nil, x: 0, y: 0, rotation: .normal, outputs: [])
      let now = connection.crtcState(id, resources)
      if now != wanted { outcome.notRestored.append("CRTC \(id): read back \(describe(now)), was \(describe(wanted))") }
      if let old = oldTransforms[id], wanted.mode != nil, let t = connection.crtcTransform(id), !t.sameEffect(as: old) {
        outcome.notRestored.append("CRTC \(id): transform read back \(t.values), was \(old.values)")
      }
    }
    if let size = connection.rootSize(), size != (before.width, before.height) {
      outcome.notRestored.append("screen read back \(size.width)x\(size.height), was \(before.width)x\(before.height)")
    }
    if let primary = primaryBefore, connection.currentPrimary() != primary {
      outcome.notRestored.append("primary: read back \(connection.currentPrimary().map(name(of:)) ?? "none")")
    }
  }
}

// MARK: Helpers

extension PlanRun {
  private struct ApplyFailure: Error { var text: String }

  private func setWithFallbacks(_ change: CrtcChange) -> Result<ModeID, ApplyFailure> {
    var reasons: [ModeRefusal] = []
    for planned in [change.mode].compactMap({ $0 }) + change.fallbacks {
      let mode: ModeID
      switch maker.realize(planned, for: change.outputs) {
      case .success(let id): mode = id
      case .failure(let error):
        reasons.append(refuseCustom(change, planned, error.text))
        continue
      }
      if let m = modeInfo(mode),
        let area = change.transform.footprint(
          x: change.x, y: change.y, width: m.width, height: m.height, rotation: change.rotation),
        !resize(width: max(screen.width, area.x + area.width), height: max(screen.height, area.y + area.height))
      {
        reasons.append(.screenTooSmall(mode))
        continue
      }
      switch setCrtc(change.crtc, mode, x: change.x, y: change.y, rotation: change.rotation, outputs: change.outputs) {
      case .ok: return .success(mode)
      case .failed(let why) where CustomModes.isVirtual(planned): reasons.append(refuseCustom(change, planned, why))
      case .failed(let why): reasons.append(.refused(mode, why: why))
      case .stale: reasons.append(.stale(mode))
      }
    }
    return .failure(ApplyFailure(text: reasons.map(\.description).joined(separator: "; ")))
  }

  /// One CRTC set, read the resources again and retried once when the timestamp went stale.
  private func setCrtc(
    _ crtc: CrtcID, _ mode: ModeID?, x: Int, y: Int, rotation: Rotation, outputs: [OutputID]
  ) -> XConnection.CrtcStatus {
    let status = connection.setCrtc(crtc, mode: mode, x: x, y: y, rotation: rotation, outputs: outputs, resources)
    guard status == .stale else { return status }
    resources.refresh()
    return connection.setCrtc(crtc, mode: mode, x: x, y: y, rotation: rotation, outputs: outputs, resources)
  }

  /// Resizes the screen in pixels at the old DPI; true when nothing needed doing.
  private func resize(width: Int, height: Int) -> Bool {
    guard (width, height) != (screen.width, screen.height) else { return true }
    let mm = ApplyGeometry.keepingDPI(
      width: width, height: height, fromHeight: before.height, fromMMHeight: before.mmHeight)
    return setScreen(ScreenGeometry(width: width, height: height, mmWidth: mm.width, mmHeight: mm.height))
  }

  private func setScreen(_ size: ScreenGeometry) -> Bool {
    guard size != screen else { return true }
    if let error = connection.setScreenSize(size) {
      outcome.problems.append("screen \(size.width)x\(size.height) (\(size.mmWidth)x\(size.mmHeight) mm): \(error)")
      return false
    }
    screen = size
    return true
  }

  private func wantedTransform(_ change: CrtcChange) -> FixedTransform? { FixedTransform(change.transform) }

  /// The CRTC's transform now, read only when it can differ from the identity: the CRTC is
  /// to get another, or its extent is not its mode's (something scales it now).
  private func currentTransform(_ crtc: CrtcID) -> FixedTransform {
    if let known = transforms[crtc] { return known }
    let change = plan.changes.first { $0.crtc == crtc }
    let wantsOther = change.map { !$0.transform.isIdentity } ?? false
    guard wantsOther || looksTransformed(crtc) else { return .identity }
    let read = connection.crtcTransform(crtc) ?? .identity
    transforms[crtc] = read
    return read
  }

  private func looksTransformed(_ crtc: CrtcID) -> Bool {
    guard let c = topology.crtc(crtc), c.isActive, let mode = c.mode.flatMap({ topology.modes[$0] }) else {
      return false
    }
    let plain = CrtcTransform.identity.footprint(
      x: c.x, y: c.y, width: mode.width, height: mode.height, rotation: c.rotation)
    return plain != c.rect
  }

  private func refuseTransform(_ change: CrtcChange, _ why: String) {
    outcome.transformRefused.insert(change.crtc)
    outcome.problems.append("\(change.outputName): transform refused: \(why)")
  }

  /// A mode from the snapshot, or one this run makes.
  private func modeInfo(_ id: ModeID) -> Mode? { topology.modes[id] ?? maker.mode(id) }

  /// A custom mode the server would not make or show: a warning naming the output and the
  /// mode, and the reason; the change goes on down its fallbacks.
  private func refuseCustom(_ change: CrtcChange, _ planned: ModeID, _ why: String) -> ModeRefusal {
    let name = plan.customModes[planned]?.name ?? "mode \(planned)"
    outcome.warnings.append("\(change.outputName): the server refused custom mode \(name) (\(why)); falling back")
    return .custom(name: name, why: why)
  }

  private func name(of output: OutputID) -> String { topology.output(output)?.name ?? "output \(output)" }

  private func describe(_ state: CrtcState?) -> String {
    guard let state else { return "nothing (the CRTC could not be read)" }
    guard let mode = state.mode else { return "off" }
    let label = modeInfo(mode)?.name ?? "mode \(mode)"
    let outputs = state.outputs.map(name(of:)).sorted().joined(separator: ",")
    return "\(label)+\(state.x)+\(state.y) rotation \(state.rotation.rawValue) on \(outputs)"
  }
}
