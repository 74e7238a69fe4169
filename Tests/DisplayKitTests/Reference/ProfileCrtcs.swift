import DisplayX11

@testable import DisplayModel

// The CRTCs of the RandR-shaped reference `ProfilePlanner`.
extension ProfilePlanner {
  /// Gives every lit slot a CRTC and a rotation the CRTC can do. Entries first keep their
  /// own CRTC, then take free ones; `same-as` entries share their target's CRTC where RandR
  /// can clone (the same mode in both outputs' lists, the same rotation, a CRTC that can
  /// drive both), else get their own.
  func allocate(_ slots: inout [Slot], _ profile: Profile, _ warnings: inout [PlanWarning]) {
    let clones = Set(slots.indices.filter { cloneTarget($0, slots, profile) != nil })
    var crtcs = CrtcAllocator(topology, lettingGo: lettingGo(slots))
    let plain = slots.indices.filter { !clones.contains($0) && slots[$0].on }
    for i in plain { slots[i].crtc = crtcs.own(slots[i].output) }
    for i in plain where slots[i].crtc == nil { give(&slots[i], &crtcs, &warnings) }
    for i in plain where slots[i].lit {
      fitRotation(&slots[i], &warnings)
      fitMode(&slots[i], &warnings)
    }
    var done = Set(plain)
    // Clones in dependency order: a clone of a clone waits for its target.
    while let i = clones.sorted().first(where: { c in
      !done.contains(c) && cloneTarget(c, slots, profile).map { done.contains($0) || !clones.contains($0) } == true
    }) {
      done.insert(i)
      guard slots[i].on else { continue }
      if let t = cloneTarget(i, slots, profile), slots[t].lit, share(&slots[i], slots[t], t) { continue }
      slots[i].crtc = crtcs.own(slots[i].output)
      if slots[i].crtc == nil { give(&slots[i], &crtcs, &warnings) }
      if slots[i].lit { fitRotation(&slots[i], &warnings) }
    }
  }

  /// The slot a `same-as` entry shows the area of, when it is another entry that is on.
  func cloneTarget(_ i: Int, _ slots: [Slot], _ profile: Profile) -> Int? {
    guard case .sameAs(let name) = slots[i].entry.position, let t = target(name, slots, profile), t != i,
      slots[t].on
    else { return nil }
    return t
  }

  /// The outputs whose CRTCs a slot may take: those this plan turns off, and those gone.
  func lettingGo(_ slots: [Slot]) -> Set<OutputID> {
    let gone = topology.crtcs.flatMap(\.outputs).filter { topology.output($0)?.isConnected != true }
    return Set(slots.filter { !$0.on }.map(\.output.id) + gone)
  }

  /// A free CRTC for the slot: one that can drive its output and that no lit output keeps
  /// (idle, or driving only outputs this plan turns off or that are gone).
  func give(_ slot: inout Slot, _ crtcs: inout CrtcAllocator, _ warnings: inout [PlanWarning]) {
    slot.crtc = crtcs.free(for: slot.output)
    if slot.crtc == nil { warnings.append(.cannotLight(output: slot.output.name, leftOff: true)) }
  }

  /// Puts a clone on its target's CRTC when RandR can drive both from it.
  func share(_ clone: inout Slot, _ target: Slot, _ t: Int) -> Bool {
    guard let crtc = target.crtc, let mode = target.mode, let own = clone.mode,
      (own.width, own.height) == (mode.width, mode.height), clone.output.modes.contains(mode.id),
      clone.output.possibleCrtcs.contains(crtc.id),
      crtc.possibleOutputs.isEmpty || crtc.possibleOutputs.contains(clone.output.id),
      crtc.fit(Rotation(clone.entry.transform, clone.entry.transformSpelling)).rotation == target.rotation
    else { return false }
    clone.crtc = crtc
    clone.sharesWith = t
    clone.modes = [mode]
    clone.rotation = target.rotation
    return true
  }

  func fitRotation(_ slot: inout Slot, _ warnings: inout [PlanWarning]) {
    guard let crtc = slot.crtc else { return }
    let (rotation, problems) = crtc.fit(Rotation(slot.entry.transform, slot.entry.transformSpelling))
    slot.rotation = rotation
    warnings += Crtc.fitWarnings(slot.output.name, problems)
  }
}
