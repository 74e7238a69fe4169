import DisplayModel
import DisplayPorts

extension DeskSettings {
  /// After a layout change: sets the properties the profile in force (else the rules) asks
  /// for that do not hold already, and maps the touch devices onto their outputs: those of
  /// `heads`, with the profile `chosen` and its entries' heads (nil: none in force).
  func applyOutputExtras(
    _ heads: HeadSnapshot, chosen: ProfileChoice?, vendors: @autoclosure () -> PNPVendors
  ) {
    // A config set since is compared as it is set (`config`): asked after every reconcile.
    if extras.config == nil { forgetExtras() }
    let wanted = wantedExtras(heads, chosen, vendors)
    applyProperties(wanted)
    mapTouch(wanted, heads)
  }

  /// Starts the memory of properties and touch devices afresh for a config other than the
  /// one it is for.
  func forgetExtras() {
    if extras.config != config { extras = ExtrasRuntime(config: config, hierarchy: extras.hierarchy) }
  }

  /// A device appeared: maps every device again (an id may now name another device).
  func inputDeviceAdded(_ heads: HeadSnapshot, chosen: ProfileChoice?, vendors: @autoclosure () -> PNPVendors) {
    guard config.usesTouch else { return }
    extras.matrices = [:]
    mapTouch(wantedExtras(heads, chosen, vendors), heads)
  }

  /// The heads that get properties or touch devices, and what each gets.
  private func wantedExtras(
    _ heads: HeadSnapshot, _ chosen: ProfileChoice?, _ vendors: () -> PNPVendors
  ) -> [(head: Head, extras: OutputExtras)] {
    // Asked after every reconcile; most configs give no rule any.
    guard chosen != nil || config.monitors.contains(where: { !$0.extras.isEmpty }) else { return [] }
    return OutputExtrasPlan.wanted(heads, config: config, profile: chosen, vendors: vendors())
  }

  /// A server without output properties has none to set: each wanted one is unsupported.
  private func applyProperties(_ wanted: [(head: Head, extras: OutputExtras)]) {
    for (head, want) in wanted where !want.properties.isEmpty {
      guard facilities.properties != nil else {
        warnOnce("\(head.name): this display server has no output properties (they are RandR's): not set")
        continue
      }
      let have = facilities.properties?.outputProperties(head: head.name, names: Set(want.properties.keys)) ?? [:]
      let (writes, warnings) = PropertyCheck.writes(output: head.name, wanted: want.properties, have: have)
      for warning in warnings { warnOnce("\(warning)") }
      for write in writes {
        do {
          try facilities.properties?.setOutputProperty(head: head.name, write)
          let later = write.pending ? " (it takes effect at the next mode set)" : ""
          log.info("\(head.name): property '\(write.name)' set to \(write.value)\(later)")
        } catch {
          warnOnce("\(head.name): property '\(write.name)' \(write.value): the server refused it (\(error)); not set")
        }
      }
      let held = want.properties.filter { have[$0.key]?.value == [$0.value] }.count
      log.debug("\(head.name): \(held) of \(want.properties.count) properties in force, \(writes.count) to set")
    }
  }

  /// A server without pointer devices cannot select their events, and lists none.
  private func mapTouch(_ wanted: [(head: Head, extras: OutputExtras)], _ heads: HeadSnapshot) {
    let uses = config.usesTouch
    if uses, facilities.pointers == nil {
      return warnOnce("touch: this display server has no X input devices (the compositor maps input): not mapped")
    }
    if uses != extras.hierarchy {
      extras.hierarchy = uses
      if facilities.pointers?.selectInputHierarchy(uses) != true && uses {
        warnOnce("the X server has no XInput 2: touch devices are not mapped")
      }
    }
    guard uses else { return }
    let devices = facilities.pointers?.inputDevices() ?? []
    let (mappings, unmatched) = OutputExtrasPlan.touch(wanted, devices: devices, heads: heads)
    for glob in unmatched {
      warnOnce("touch '\(glob)': no XInput pointer device with a Coordinate Transformation Matrix matches it (yet)")
    }
    for m in mappings where extras.matrices[m.device.id] != m.matrix {
      let device = "'\(m.device.name)' (id \(m.device.id))"
      do {
        try facilities.pointers?.setTransformMatrix(device: m.device.id, m.matrix)
        extras.matrices[m.device.id] = m.matrix
        log.info("touch: \(device) mapped to \(m.output) at \(m.rect)")
      } catch {
        warnOnce("touch: \(device): the server refused its Coordinate Transformation Matrix (\(error))")
      }
    }
  }
}
