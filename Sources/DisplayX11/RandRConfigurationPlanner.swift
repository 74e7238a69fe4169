import DisplayModel
import DisplayPorts

/// A configuration turned into a plan, with the heads each CRTC of the plan drives.
struct PlannedConfiguration {
  var plan: Plan
  var crtcNames: [CrtcID: [String]]
  /// What the plan does otherwise than asked (a default mode too large for the server's
  /// screen given way to a smaller one).
  var warnings: [PlanWarning] = []

  /// The heads on `crtcs`, in the order of the plan's changes.
  func names(of crtcs: Set<CrtcID>) -> [String] {
    plan.changes.filter { crtcs.contains($0.crtc) }.flatMap { crtcNames[$0.crtc] ?? [$0.outputName] }
  }
}

/// Turns the port's `OutputConfiguration` into RandR's `Plan` against one snapshot: the CRTCs
/// from `CrtcAllocator` (each lit head keeps its own CRTC; then, in the order of
/// the configuration's heads, each other takes the first free one it can use, a CRTC of a
/// head turned off included; clones last, on their target's CRTC where RandR can drive both
/// from it: as the profile planner gives them),
/// listed modes matched by size and nearest refresh, custom modes as the custom-mode path
/// makes them, fallbacks after them, transforms as rotation bits and scale matrices, the
/// screen sized to hold every lit CRTC within the server's maximum and X's 16-bit
/// coordinates (a head whose mode is the default choice taking a smaller one of its own where
/// the screen would be too large: `fitDefaultModes`), and its millimetres. Every reason a configuration cannot be sent is
/// collected as a typed problem. Pure.
struct RandRConfigurationPlanner {
  typealias Problem = ApplyRefusal.Problem
  let topology: Topology
  /// CRTCs known to refuse transforms: a scale other than 1 on them is refused.
  let refusing: Set<CrtcID>

  init(_ topology: Topology, refusing: Set<CrtcID> = []) {
    self.topology = topology
    self.refusing = refusing
  }

  struct Entry {
    var output: Output
    var head: HeadConfiguration
  }

  struct Work {
    var plan = Plan()
    var names: [CrtcID: [String]] = [:]
    var problems: [Problem] = []
    var allocator: CrtcAllocator
    /// The CRTCs lit for heads whose mode is the planner's default choice.
    var defaultModes: Set<CrtcID> = []
    var warnings: [PlanWarning] = []
  }

  func plan(_ configuration: OutputConfiguration) -> Result<PlannedConfiguration, ApplyRefusal> {
    var problems: [Problem] = []
    let entries = known(configuration.heads, &problems)
    let lettingGo = Set(entries.filter { !$0.head.enabled }.map(\.output.id))
    var work = Work(problems: problems, allocator: CrtcAllocator(topology, lettingGo: lettingGo))
    let lit = entries.filter(\.head.enabled)
    let clones = cloneOrder(lit)
    let plain = lit.filter { entry in !clones.contains { $0.output.id == entry.output.id } }
    var given: [OutputID: Crtc] = [:]
    for entry in plain { given[entry.output.id] = work.allocator.own(entry.output) }
    for entry in plain where given[entry.output.id] == nil {
      // A scaled head takes a CRTC that has not refused a transform, where one is free.
      let scaled = (entry.head.scale, entry.head.verticalScale) != (1, 1)
      given[entry.output.id] =
        scaled ? freeTakingTransforms(entry.output, &work) : work.allocator.free(for: entry.output)
    }
    for entry in plain {
      light(entry, on: given[entry.output.id], &work)
      if entry.head.modeIsDefault, let crtc = given[entry.output.id] { work.defaultModes.insert(crtc.id) }
    }
    for entry in clones where !share(entry, &work) {
      light(entry, on: work.allocator.own(entry.output) ?? work.allocator.free(for: entry.output), &work)
    }
    release(entries, &work)
    if topology.leavesDark(work.plan) { work.problems.insert(.dark, at: 0) }
    sizeScreen(&work)
    if let name = configuration.primary {
      if let output = topology.output(named: name) {
        if topology.primary != output.id { work.plan.primary = output.id }
      } else {
        work.problems.append(.unknownPrimary(name))
      }
    }
    // A physical size the screen has already is none to set (a profile's `dpi` after a restart).
    let screenMM = (topology.screen.mmWidth, topology.screen.mmHeight)
    work.plan.screenMillimetres = configuration.physicalSize.map { ($0.width, $0.height) }.flatMap {
      $0 == screenMM ? nil : $0
    }
    work.plan.configures = Set(entries.map(\.output.id))
    guard work.problems.isEmpty else { return .failure(ApplyRefusal(problems: work.problems)) }
    return .success(PlannedConfiguration(plan: work.plan, crtcNames: work.names, warnings: work.warnings))
  }

  /// The heads of the server the configuration names, each once (the last word counts).
  private func known(_ heads: [HeadConfiguration], _ problems: inout [Problem]) -> [Entry] {
    var entries: [Entry] = []
    for head in heads {
      guard let output = topology.output(named: head.name) else {
        problems.append(.unknownHead(head.name, known: topology.outputs.map(\.name)))
        continue
      }
      entries.removeAll { $0.output.id == output.id }
      entries.append(Entry(output: output, head: head))
    }
    return entries
  }

  /// The lit heads that are the same as another lit head, each after the head it shows (a
  /// clone of a clone after its target); heads in a ring of `sameAs` are heads of their own.
  private func cloneOrder(_ lit: [Entry]) -> [Entry] {
    let names = Set(lit.map(\.head.name))
    var waiting = lit.filter { entry in entry.head.sameAs.map { $0 != entry.head.name && names.contains($0) } ?? false }
    var ordered: [Entry] = []
    while let i = waiting.firstIndex(where: { entry in !waiting.contains { $0.head.name == entry.head.sameAs } }) {
      ordered.append(waiting.remove(at: i))
    }
    return ordered
  }

  /// Puts a clone on the CRTC of the head it shows, when that CRTC can drive it and it lists
  /// that mode: the change gains the output, and keeps the fallbacks both list.
  private func share(_ entry: Entry, _ work: inout Work) -> Bool {
    guard let target = entry.head.sameAs,
      let index = work.plan.changes.firstIndex(where: { work.names[$0.crtc]?.contains(target) == true }),
      let crtc = topology.crtc(work.plan.changes[index].crtc), let mode = work.plan.changes[index].mode,
      entry.output.modes.contains(mode), entry.output.possibleCrtcs.contains(crtc.id),
      crtc.possibleOutputs.isEmpty || crtc.possibleOutputs.contains(entry.output.id)
    else { return false }
    work.plan.changes[index].outputs.append(entry.output.id)
    work.plan.changes[index].fallbacks.removeAll { !entry.output.modes.contains($0) }
    work.names[crtc.id, default: []].append(entry.head.name)
    return true
  }

  /// The change lighting `entry` on `crtc`, or the problems that keep it dark.
  private func light(_ entry: Entry, on crtc: Crtc?, _ work: inout Work) {
    let (output, head) = (entry.output, entry.head)
    guard let crtc else { return work.problems.append(.noFreeCrtc(output.name)) }
    guard let mode = mode(output, head.mode, &work.problems) else { return }
    guard let rotation = RandRHeadValues.rotation(head.transform, allowed: crtc.rotations, spelling: head.spelling)
    else {
      let asked = Rotation(head.transform, head.spelling)
      let reason = "its CRTC cannot do \(rotationWords(asked)), only \(rotationWords(crtc.rotations))"
      return work.problems.append(.rotation(head: output.name, reason: reason))
    }
    guard let transform = transform(output.name, head, crtc, &work.problems) else { return }
    guard transform.footprint(x: head.x, y: head.y, width: mode.width, height: mode.height, rotation: rotation) != nil
    else {
      return work.problems.append(
        .invalid(head: output.name, reason: "scale \(head.scale) does not fit RandR's 16.16 matrix"))
    }
    guard head.x >= 0, head.y >= 0, head.x <= Int(Int16.max), head.y <= Int(Int16.max) else {
      let reason = "position \(head.x),\(head.y) is outside X's screen (0 to \(Int16.max))"
      return work.problems.append(.invalid(head: output.name, reason: reason))
    }
    var fallbacks: [Mode] = []
    for request in head.fallbackModes {
      var ignored: [Problem] = []
      // The screen is sized for `mode`: a larger fallback would not fit it.
      guard let fallback = self.mode(output, request, &ignored), fallback.id != mode.id,
        fallback.width <= mode.width, fallback.height <= mode.height,
        !fallbacks.contains(where: { $0.id == fallback.id })
      else { continue }
      fallbacks.append(fallback)
    }
    for made in [mode] + fallbacks where CustomModes.isVirtual(made.id) { work.plan.customModes[made.id] = made }
    work.names[crtc.id] = [output.name]
    work.plan.changes.append(
      CrtcChange(
        crtc: crtc.id, mode: mode.id, x: head.x, y: head.y, rotation: rotation, outputs: [output.id],
        fallbacks: fallbacks.map(\.id), outputName: output.name, transform: transform))
  }

  /// A free CRTC for a scaled head: the first that has not refused a transform, else the
  /// first free one (whose refusal the plan then says).
  private func freeTakingTransforms(_ output: Output, _ work: inout Work) -> Crtc? {
    var trial = work.allocator
    var passed: [Crtc] = []
    while let crtc = trial.free(for: output) {
      guard refusing.contains(crtc.id) else {
        for skipped in passed { trial.giveBack(skipped.id) }
        work.allocator = trial
        return crtc
      }
      passed.append(crtc)
    }
    return work.allocator.free(for: output)
  }

  /// The CRTC transform for the head's scales: the identity for 1 both ways.
  private func transform(_ name: String, _ head: HeadConfiguration, _ crtc: Crtc, _ problems: inout [Problem])
    -> CrtcTransform?
  {
    let (sx, sy) = (head.scale, head.verticalScale)
    guard sx.isFinite, sx > 0, sy.isFinite, sy > 0 else {
      problems.append(.invalid(head: name, reason: "scale \(sx)x\(sy) is not a positive number"))
      return nil
    }
    if (sx, sy) != (1, 1) && refusing.contains(crtc.id) {
      problems.append(.crtcRefusedTransform(name))
      return nil
    }
    let transform = RandRHeadValues.crtcTransform(scaleX: sx, scaleY: sy, filter: head.scaleFilter)
    guard FixedTransform(transform) != nil else {
      problems.append(.invalid(head: name, reason: "scale \(sx) does not fit RandR's 16.16 matrix"))
      return nil
    }
    return transform
  }

  /// The mode a request names for `output`: its current one (else its preferred, else its
  /// first) for none, the nearest listed one, or a custom one found or to make.
  func mode(_ output: Output, _ request: HeadModeRequest?, _ problems: inout [Problem]) -> Mode? {
    let modes = topology.modes(of: output)
    switch request {
    case nil:
      let current = topology.currentMode(of: output)
      let preferred = output.preferredModes.first.flatMap { topology.modes[$0] }
      guard let mode = current ?? preferred ?? modes.first else {
        problems.append(.noModes(head: output.name))
        return nil
      }
      return mode
    case .listed(let width, let height, let refresh):
      guard let mode = RandRHeadValues.nearest(modes, width: width, height: height, refreshMilliHz: refresh) else {
        problems.append(.noMode(head: output.name, width: width, height: height))
        return nil
      }
      return mode
    case .custom(let line):
      let resolved = CustomModes.resolve(
        .size(width: line.hDisplay, height: line.vDisplay), .modeline(line), for: output, in: topology)
      guard let mode = resolved.mode else {
        problems.append(.failed(resolved.warning?.description ?? "\(output.name): the custom mode cannot be made"))
        return nil
      }
      return mode
    }
  }
}
