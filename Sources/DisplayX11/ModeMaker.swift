import DisplayModel

/// The custom modes one apply creates: made when a change first tries one (so a mode the
/// plan never reaches is never made), kept when a CRTC ends up showing it, unmade otherwise
/// and on rollback, so an apply leaves no mode it made unused.
final class ModeMaker {
  private let connection: XConnection
  private let resources: ScreenResources
  private let wanted: [ModeID: Mode]
  /// Virtual ids made real in this run.
  private var real: [ModeID: Mode] = [:]
  /// Made by this run, and added by it to outputs: what undoing removes.
  private var created: [ModeID] = []
  private var added: [(output: OutputID, mode: ModeID)] = []

  init(_ connection: XConnection, _ resources: ScreenResources, wanted: [ModeID: Mode]) {
    self.connection = connection
    self.resources = resources
    self.wanted = wanted
  }

  /// The mode under an id: a virtual one's (its real mode once made), or one made in this run.
  func mode(_ id: ModeID) -> Mode? { real[id] ?? wanted[id] ?? real.values.first { $0.id == id } }

  /// The server's id for a mode a change names: itself for a server mode; for a virtual one,
  /// the mode made (or found under its name) and added to the outputs.
  func realize(_ id: ModeID, for outputs: [OutputID]) -> Result<ModeID, ModeRequestError> {
    guard CustomModes.isVirtual(id) else { return .success(id) }
    if let done = real[id] { return .success(done.id) }
    guard let mode = wanted[id] else { return .failure(ModeRequestError(text: "the plan has no timings for it")) }
    let made: (ModeID, created: Bool)
    if let same = real.values.first(where: { $0.name == mode.name }) {
      made = (same.id, false)
    } else {
      switch connection.createMode(mode, resources) {
      case .failure(let error): return .failure(error)
      case .success(let result): made = result
      }
    }
    if made.created { created.append(made.0) }
    var result = mode
    result.id = made.0
    real[id] = result
    for output in outputs {
      if let error = connection.addOutputMode(output, made.0) {
        return .failure(ModeRequestError(text: "XRRAddOutputMode: \(error)"))
      }
      added.append((output, made.0))
    }
    return .success(made.0)
  }

  /// Unmakes what this run made that no CRTC shows: all of it after a rollback (`shown`
  /// empty). The problems, for the outcome.
  func undo(keeping shown: Set<ModeID>) -> [String] {
    var problems: [String] = []
    for (output, mode) in added.reversed() where !shown.contains(mode) {
      if let error = connection.deleteOutputMode(output, mode) { problems.append("mode \(mode): \(error)") }
    }
    for mode in created.reversed() where !shown.contains(mode) {
      if let error = connection.destroyMode(mode) { problems.append("mode \(mode): \(error)") }
    }
    added = added.filter { shown.contains($0.mode) }
    created = created.filter(shown.contains)
    return problems
  }
}
