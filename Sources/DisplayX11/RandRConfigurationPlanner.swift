import DisplayModel
import DisplayPorts

/// A configuration turned into a plan, with the head each CRTC of the plan drives.
struct PlannedConfiguration {
  var plan: Plan
  var crtcNames: [CrtcID: String]

  func names(of crtcs: Set<CrtcID>) -> Set<String> { Set(crtcs.compactMap { crtcNames[$0] }) }
}

/// Turns the port's `OutputConfiguration` into RandR's `Plan` against one snapshot: the CRTCs
/// from the model's one allocator, listed modes matched by size and nearest refresh, custom
/// modes as the custom-mode path makes them, transforms as rotation bits and matrices, and the
/// screen sized to hold every lit CRTC within the server's maximum and X's 16-bit
/// coordinates. Every reason a configuration cannot be sent is collected. Pure.
struct RandRConfigurationPlanner {
  let topology: Topology
  /// CRTCs known to refuse transforms: a scale other than 1 on them is refused.
  let refusing: Set<CrtcID>

  init(_ topology: Topology, refusing: Set<CrtcID> = []) {
    self.topology = topology
    self.refusing = refusing
  }

  private struct Work {
    var plan = Plan()
    var names: [CrtcID: String] = [:]
    var reasons: [String] = []
    var transformRefused: Set<String> = []
  }

  func plan(_ configuration: OutputConfiguration) -> Result<PlannedConfiguration, ApplyRefusal> {
    var work = Work()
    var entries: [(output: Output, head: HeadConfiguration)] = []
    for head in configuration.heads {
      if let output = topology.output(named: head.name) {
        entries.append((output, head))
      } else {
        work.reasons.append(
          "no head \(head.name) (the server has \(topology.outputs.map(\.name).joined(separator: ", ")))")
      }
    }
    let lit = entries.filter(\.head.enabled)
    var allocator = CrtcAllocator(topology, lettingGo: Set(entries.filter { !$0.head.enabled }.map(\.output.id)))
    var given: [OutputID: Crtc] = [:]
    for entry in lit { given[entry.output.id] = allocator.own(entry.output) }
    for entry in lit where given[entry.output.id] == nil {
      given[entry.output.id] = allocator.free(for: entry.output)
    }
    for entry in lit {
      guard let crtc = given[entry.output.id] else {
        work.reasons.append("\(entry.output.name): no free CRTC can drive it")
        continue
      }
      change(entry.output, entry.head, on: crtc, &work)
    }
    turnOff(entries.filter { !$0.head.enabled }.map(\.output), &work)
    sizeScreen(&work)
    if let name = configuration.primary {
      if let output = topology.output(named: name) {
        if topology.primary != output.id { work.plan.primary = output.id }
      } else {
        work.reasons.append("primary \(name): no such head")
      }
    }
    work.plan.configures = Set(entries.map(\.output.id))
    guard work.reasons.isEmpty else {
      return .failure(
        ApplyRefusal(reason: work.reasons.joined(separator: "; "), transformRefused: work.transformRefused))
    }
    return .success(PlannedConfiguration(plan: work.plan, crtcNames: work.names))
  }

  /// The change lighting `output` as `head` asks on `crtc`, or the reasons it cannot.
  private func change(_ output: Output, _ head: HeadConfiguration, on crtc: Crtc, _ work: inout Work) {
    let name = output.name
    guard let mode = mode(output, head.mode, &work) else { return }
    guard let rotation = RandRHeadValues.rotation(head.transform, allowed: crtc.rotations) else {
      work.transformRefused.insert(name)
      let offered = RandRHeadValues.transforms(allowed: crtc.rotations).map { "\($0)" }.sorted()
      work.reasons.append("\(name): its CRTC cannot do \(head.transform), only \(offered.joined(separator: ", "))")
      return
    }
    guard head.scale.isFinite, head.scale > 0 else {
      work.reasons.append("\(name): scale \(head.scale) is not a positive number")
      return
    }
    if head.scale != 1 && refusing.contains(crtc.id) {
      work.transformRefused.insert(name)
      work.reasons.append("\(name): its CRTC refused transforms before; it cannot scale")
      return
    }
    let transform = RandRHeadValues.crtcTransform(scale: head.scale, filter: head.scaleFilter)
    guard FixedTransform(transform) != nil,
      transform.footprint(x: head.x, y: head.y, width: mode.width, height: mode.height, rotation: rotation) != nil
    else {
      work.reasons.append("\(name): scale \(head.scale) does not fit RandR's 16.16 matrix")
      return
    }
    guard head.x >= 0, head.y >= 0, head.x <= Int(Int16.max), head.y <= Int(Int16.max) else {
      work.reasons.append("\(name): position \(head.x),\(head.y) is outside X's screen (0 to \(Int16.max))")
      return
    }
    if CustomModes.isVirtual(mode.id) { work.plan.customModes[mode.id] = mode }
    work.names[crtc.id] = name
    work.plan.changes.append(
      CrtcChange(
        crtc: crtc.id, mode: mode.id, x: head.x, y: head.y, rotation: rotation, outputs: [output.id], fallbacks: [],
        outputName: name, transform: transform))
  }

  /// The mode a request names for `output`: its current one (else its preferred, else its
  /// first) for none, the nearest listed one, or a custom one found or to make.
  private func mode(_ output: Output, _ request: HeadModeRequest?, _ work: inout Work) -> Mode? {
    let modes = topology.modes(of: output)
    switch request {
    case nil:
      let current = topology.currentMode(of: output)
      let preferred = output.preferredModes.first.flatMap { topology.modes[$0] }
      guard let mode = current ?? preferred ?? modes.first else {
        work.reasons.append("\(output.name) lists no mode")
        return nil
      }
      return mode
    case .listed(let width, let height, let refresh):
      guard let mode = RandRHeadValues.nearest(modes, width: width, height: height, refreshMilliHz: refresh) else {
        work.reasons.append("\(output.name) has no mode \(width)x\(height)")
        return nil
      }
      return mode
    case .custom(let line):
      let resolved = CustomModes.resolve(
        .size(width: line.hDisplay, height: line.vDisplay), .modeline(line), for: output, in: topology)
      guard let mode = resolved.mode else {
        work.reasons.append(resolved.warning?.description ?? "\(output.name): the custom mode cannot be made")
        return nil
      }
      return mode
    }
  }

  /// Turns off the CRTCs of `outputs` that no lit head of the plan took; a CRTC that also
  /// drives outputs the configuration leaves alone keeps them.
  private func turnOff(_ outputs: [Output], _ work: inout Work) {
    let off = Set(outputs.map(\.id))
    var done: Set<CrtcID> = Set(work.plan.changes.map(\.crtc))
    for output in outputs {
      guard let crtc = topology.activeCrtc(of: output), done.insert(crtc.id).inserted else { continue }
      let kept = crtc.outputs.filter { !off.contains($0) }
      work.names[crtc.id] = output.name
      work.plan.changes.append(
        CrtcChange(
          crtc: crtc.id, mode: kept.isEmpty ? nil : crtc.mode, x: crtc.x, y: crtc.y, rotation: crtc.rotation,
          outputs: kept, fallbacks: [], outputName: output.name))
    }
  }

  /// The screen that holds every CRTC lit afterwards, at least the server's minimum; refused
  /// beyond its maximum or X's 16-bit coordinates.
  private func sizeScreen(_ work: inout Work) {
    let changed = Set(work.plan.changes.map(\.crtc))
    var rects = topology.crtcs.filter { $0.isActive && !changed.contains($0.id) }.map(\.rect)
    for change in work.plan.changes {
      guard let id = change.mode, let mode = work.plan.mode(id, in: topology),
        let rect = change.transform.footprint(
          x: change.x, y: change.y, width: mode.width, height: mode.height, rotation: change.rotation)
      else { continue }
      rects.append(rect)
    }
    let screen = topology.screen
    let width = max(screen.minWidth, 1, rects.map { $0.x.addingReportingOverflow($0.width).partialValue }.max() ?? 0)
    let height = max(screen.minHeight, 1, rects.map { $0.y.addingReportingOverflow($0.height).partialValue }.max() ?? 0)
    guard screen.holds(width, height) else {
      let largest = screen.largest
      work.reasons.append(
        "it needs a \(width)x\(height) screen, more than the server's maximum \(largest.width)x\(largest.height)")
      return
    }
    if (width, height) != (screen.width, screen.height) { work.plan.screen = (width, height) }
  }
}
