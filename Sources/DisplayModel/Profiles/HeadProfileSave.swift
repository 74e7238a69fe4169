extension ProfileSave {
  /// The layout of a snapshot of heads as one profile (see `ProfileSave`): the heads a
  /// profile must account for (`HeadProfileMatcher.desk`), lit ones by the corner of their
  /// area, each matched by its EDID, else by the make, model and serial it says (the PNP ids
  /// of a make from `vendors`); the properties of a head by its name.
  public static func text(
    name: String, snapshot: HeadSnapshot, properties: [String: [String: OutputProperty]] = [:],
    vendors: PNPVendors = .none
  ) -> String {
    let snapshot = snapshot.bounded().snapshot
    let desk = HeadProfileMatcher.desk(snapshot)
    let lit = desk.compactMap { h in h.rect.map { (h, $0) } }
      .sorted { a, b in (a.1.x, a.1.y, a.0.name) < (b.1.x, b.1.y, b.0.name) }.map(\.0)
    let off = desk.filter { $0.rect == nil }
    // Every lit head's picture, those outside the desk too (a `non-desktop` head on the
    // CRTC of a desk's head makes it a picture shown twice).
    let shown = snapshot.heads.compactMap(Picture.init)
    var entries: [String] = []
    for head in lit + off {
      var fields = ["match: " + match(head, desk, vendors: vendors)]
      if let mode = head.mode, head.rect != nil {
        fields += litFields(head, mode, lit: lit, shown: shown)
        if snapshot.primary == head.name { fields.append("primary: true") }
      } else {
        fields.append("enabled: false")
      }
      fields += propertyFields(properties[head.name] ?? [:])
      entries.append("{ " + fields.joined(separator: ", ") + " }")
    }
    return object(name: name, outputs: entries)
  }

  /// A lit head's mode and place: `same-as` the first lit head of the desk showing its
  /// picture, and on that one an `alias` when another head shows its picture too.
  static func litFields(_ head: Head, _ mode: HeadMode, lit: [Head], shown: [Picture]) -> [String] {
    guard let picture = Picture(head) else { return layout(head, mode) }
    if let first = lit.first(where: { Picture($0) == picture }), first.name != head.name {
      return modeFields(mode, head) + ["position: " + quoted("same-as " + first.name)]
    }
    let alias = shown.filter { $0 == picture }.count > 1 ? ["alias: " + quoted(head.name)] : []
    return alias + layout(head, mode)
  }

  /// What a lit head shows, as far as heads tell: heads alike in it show one picture. A
  /// snapshot does not say which heads share a CRTC; heads at one place, turned alike,
  /// scaled alike in the mode the server names by one handle (on X, its id) do. A
  /// compositor names no modes: each of its heads shows its own.
  struct Picture: Hashable {
    var rect: Rect
    var mode: UInt64
    var transform: HeadTransform
    var spelling: TransformSpelling
    var scale: Double

    init?(_ head: Head) {
      guard let rect = head.rect, let mode = head.mode?.serverID else { return nil }
      (self.rect, self.mode, transform, spelling, scale) = (rect, mode, head.transform, head.spelling, head.scale)
    }
  }

  /// The match for one head: its identity, with the connector when another head of the desk
  /// would match it too.
  static func match(_ head: Head, _ desk: [Head], vendors: PNPVendors) -> String {
    let edid = head.edid.flatMap { try? EDID(bytes: $0) }
    let said =
      edid == nil ? HeadIdentity(make: head.make, model: head.model, serial: head.serial, vendors: vendors) : nil
    var m = identityMatch(edid, said: said)
    if !identifies(m)
      || desk.contains(where: { $0.name != head.name && HeadProfileMatcher.matches(m, $0, vendors: vendors) })
    {
      m.output = escaped(head.name)
    }
    return text(m)
  }

  /// Mode, position, rotation, reflection and scale of a lit head.
  static func layout(_ head: Head, _ mode: HeadMode) -> [String] {
    var fields = modeFields(mode, head) + ["position: " + quoted("\(head.x),\(head.y)")]
    fields += rotationFields(Rotation(head.transform, head.spelling))
    if let s = uniformScale([head.scale, 0, 0, 0, head.scale, 0, 0, 0, 1]), ProfileOutput.scales.contains(s) {
      fields.append("scale: \(s)")
    }
    return fields
  }

  /// The mode's fields, checked against the mode policy over the head's modes; a mode with
  /// the server's timings (RandR's) is the server's mode again, which says whether displayd
  /// made it.
  static func modeFields(_ mode: HeadMode, _ head: Head) -> [String] {
    let server = mode.timings.map { $0.mode(id: ModeID(rawValue: 0), name: mode.name ?? "") }
    return modeFields(server, width: mode.width, height: mode.height, refreshHz: mode.timedRefreshHz ?? mode.refreshHz)
    { request, custom in
      HeadModePolicy.candidates(request, custom: custom, for: head).modes.first?.listed == mode
    }
  }
}
