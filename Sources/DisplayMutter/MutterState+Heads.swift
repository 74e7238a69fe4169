import DisplayModel

extension MutterState {
  /// The monitors as heads: a monitor in a logical monitor is lit at its place with its
  /// transform; the scale in the config's meaning (the area shown is `scale` times the mode,
  /// mutter's scale being pixels per logical pixel) where mutter lays out by logical size,
  /// 1 where it lays out by modes (its scale then sizes clients, not the desk).
  public var heads: HeadSnapshot {
    let heads = monitors.map(head)
    let primary = logicalMonitors.first(where: \.primary)?.connectors.first
    return HeadSnapshot(heads: heads, primary: primary, generation: UInt64(serial))
  }

  /// The logical monitor `connector` shows, if it is lit.
  public func logicalMonitor(of connector: String) -> LogicalMonitor? {
    logicalMonitors.first { $0.connectors.contains(connector) }
  }

  private func head(_ monitor: Monitor) -> Head {
    let logical = logicalMonitor(of: monitor.connector)
    let modes = monitor.modes.map { mode in
      HeadMode(
        width: mode.width, height: mode.height, refreshMilliHz: Int(exactly: (mode.refreshHz * 1000).rounded()) ?? 0,
        preferred: mode.preferred, interlaced: mode.interlaced, server: ServerModeFacts(name: mode.id))
    }
    let current = logical == nil ? nil : monitor.modes.firstIndex(where: \.current)
    let scale = layoutMode == .logical ? 1 / (logical?.scale ?? 1) : 1
    return Head(
      name: monitor.connector, description: monitor.displayName, make: monitor.vendor, model: monitor.product,
      serial: monitor.serial, mmWidth: monitor.mmWidth, mmHeight: monitor.mmHeight, connected: true,
      enabled: current != nil, modes: modes, currentMode: current, x: logical?.x ?? 0, y: logical?.y ?? 0,
      transform: logical?.transform ?? .normal, scale: scale, scaledArea: .logical, isInternalPanel: monitor.builtin,
      capabilities: HeadCapabilities(transforms: Set(Transform.allCases), scaling: layoutMode == .logical))
  }
}
