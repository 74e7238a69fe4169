import DisplayModel
import DisplaySupport
import DisplayX11

extension DaemonService {
  /// Answers `identify`: a card on every lit output for `seconds`, taken away by the timer
  /// in the event loop; a second request replaces the cards and restarts the time.
  func identify(seconds: Int) -> JSON {
    if let refusal = IdentifyDuration.refusal(seconds) { return ControlProtocol.error(refusal) }
    do {
      if identify == nil, let surfaces = daemon.surfaces {
        identify = try IdentifyOverlays(surfaces: surfaces)
      }
    } catch { return ControlProtocol.error("identify: \(error)") }
    guard let identify else { return ControlProtocol.error("identify: this daemon shows no surfaces") }
    let (shown, failures) = identify.show(IdentifyCard.cards(in: daemon.heads), seconds: seconds)
    for failure in failures { log.warning("identify: \(failure)") }
    log.info("identify: \(shown.count) output(s) for \(seconds) s")
    return .object([
      ("ok", .bool(true)), ("seconds", .int(seconds)),
      ("outputs", .array(shown.map(\.json))),
      ("errors", .array(failures.map { .string($0) })),
    ])
  }
}

extension IdentifyCard {
  /// The card as `identify` answers it.
  public var json: JSON {
    .object([
      ("output", .string(output)), ("monitor", JSON.optional(monitor) { .string($0) }), ("mode", .string(mode)),
      (
        "geometry",
        .object([("x", .int(rect.x)), ("y", .int(rect.y)), ("width", .int(rect.width)), ("height", .int(rect.height))])
      ),
    ])
  }

}
