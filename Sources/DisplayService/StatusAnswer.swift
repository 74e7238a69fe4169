import DisplayKit

extension Daemon {
  /// What `displayd status --json` prints: the managed monitors and the counters.
  public func statusJSON(configPath: String?, configError: String?) -> JSON {
    let list = monitors.values.sorted { $0.name < $1.name }.map { m -> JSON in
      let output = topology.output(m.output)
      let edid = output?.identity
      let mode = output.flatMap { topology.currentMode(of: $0) }
      return .object([
        ("output", .string(m.name)),
        (
          "identity",
          JSON.optional(edid) { e in
            .object([
              ("manufacturer", .string(e.manufacturer)),
              ("product_name", JSON.optional(e.productName) { .string($0.text) }),
              ("serial", JSON.optional(e.serial) { .string($0) }),
              ("display_id", .string(DisplayID(edid: e).rawValue)),
            ])
          }
        ),
        ("mode", JSON.optional(mode) { .string($0.label) }),
        ("geometry", TopologyReport.rectJSON(m.rect)),
        ("window", .int(Int(m.window.rawValue))),
        ("content", .string(m.content.rawValue)),
        ("level", .string(m.level.rawValue)),
        ("since", .string(m.since)),
      ])
    }
    let c = counters
    return .object([
      ("display", .string(connection.name)),
      ("since", .string(startedAt)),
      ("config", JSON.optional(configPath) { .string($0) }),
      ("config_error", JSON.optional(configError) { .string($0) }),
      ("main", JSON.optional(mainOutput) { .string($0.name) }),
      ("lid", .string(lid.rawValue)),
      (
        "profile",
        .object([
          ("name", JSON.optional(activeProfile.name) { .string($0) }),
          ("reason", .string(activeProfile.reason.rawValue)),
        ])
      ),
      ("monitors", .array(list)),
      (
        "counters",
        .object([
          ("reconciles", .int(c.reconciles)), ("reconciles_changed", .int(c.reconcilesChanged)),
          ("windows_created", .int(c.windowsCreated)), ("windows_destroyed", .int(c.windowsDestroyed)),
          ("redraws", .int(c.redraws)), ("composites", .int(c.composites)),
        ])
      ),
    ])
  }
}
