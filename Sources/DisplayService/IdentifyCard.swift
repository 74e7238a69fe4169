import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import DisplayX11

/// What `displayd identify` shows on one lit output, and where: pure, from a snapshot.
public struct IdentifyCard: Equatable, Sendable {
  public var output: String
  /// The monitor's EDID display name (product name), else its manufacturer code; nil
  /// without an EDID.
  public var monitor: String?
  public var mode: String
  /// The output's area of the screen.
  public var area: Rect
  /// The card's window: centred on the output, 4/5 of its width and 3/5 of its height.
  public var rect: Rect
  /// The output's pixels per unit of `area`: 1 on X, where the card's window is screen
  /// pixels; on a scaled Wayland head (a logical area) the card is drawn at this many, so
  /// that the compositor shows it pixel for pixel.
  public var density = 1.0

  /// The lines under the output's name.
  public var lines: [String] { (monitor.map { [$0] } ?? []) + [mode] }
  /// The output's name is a fifth of the monitor's height: readable across a room.
  public var titleHeight: Double { Double(area.height) / 5 }

  /// The card for every lit head (enabled, with a current mode and an area), left to right;
  /// the mode named as the wire names it (`WireMode.label`).
  public static func cards(in snapshot: HeadSnapshot) -> [IdentifyCard] {
    snapshot.heads.compactMap { head -> IdentifyCard? in
      guard let area = head.rect, let index = head.currentMode else { return nil }
      let edid = head.edid.flatMap { try? EDID(bytes: $0) }
      let monitor = edid?.productName?.text ?? edid.map { "\($0.manufacturer) monitor" }
      var card = IdentifyCard(
        output: head.name, monitor: monitor, mode: WireMode(head, index).label, area: area, rect: cardRect(in: area))
      card.density = PlaceholderContent.density(of: head)
      return card
    }.sorted { ($0.area.x, $0.area.y, $0.output) < ($1.area.x, $1.area.y, $1.output) }
  }

  /// The card's rectangle in `area`; the arithmetic saturates for any size a client sets.
  public static func cardRect(in area: Rect) -> Rect {
    let width = max(1, area.width / 5 * 4 + area.width % 5 * 4 / 5)
    let height = max(1, area.height / 5 * 3 + area.height % 5 * 3 / 5)
    return Rect(
      x: area.x.addingReportingOverflow((area.width - width) / 2).partialValue,
      y: area.y.addingReportingOverflow((area.height - height) / 2).partialValue, width: width, height: height)
  }

  /// One line for the CLI: output, monitor and mode.
  public var summary: String { ([output] + lines).joined(separator: "  ") }
}

/// How long `identify` shows its cards.
public enum IdentifyDuration {
  public static let defaultSeconds = 3
  public static let range = 1...600

  /// The seconds `text` names, nil when it is not a whole number in `range`.
  public static func parse(_ text: String) -> Int? {
    guard let n = Int(text), range.contains(n) else { return nil }
    return n
  }

  /// Why `seconds` is refused, nil when it is fine.
  public static func refusal(_ seconds: Int) -> String? {
    range.contains(seconds)
      ? nil : "seconds must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(seconds)"
  }
}

/// The cards on screen and the timer that takes them away: the daemon polls `timer`; the
/// standalone command waits on it. Each card is a surface of the `SurfaceHost` (a spec that
/// covers only the card, at the overlay level): an overlay window on X, an overlay layer
/// surface on a compositor.
public final class IdentifyOverlays {
  private let surfaces: any SurfaceHost
  public let timer: DeadlineTimer
  private var shown: [SurfaceID] = []

  /// Cards as surfaces of `surfaces`.
  public init(surfaces: any SurfaceHost) throws(SystemError) {
    self.surfaces = surfaces
    timer = try DeadlineTimer()
  }

  /// Whether cards are on screen.
  public var isShowing: Bool { !shown.isEmpty }

  /// Shows `cards` for `seconds`, replacing any shown; returns those shown, with the reason
  /// for each that could not be.
  @discardableResult
  public func show(_ cards: [IdentifyCard], seconds: Int) -> (shown: [IdentifyCard], failures: [String]) {
    remove()
    var done: [IdentifyCard] = []
    var failures: [String] = []
    for card in cards {
      guard let image = draw(card) else {
        failures.append("\(card.output): the card could not be drawn")
        continue
      }
      do {
        shown.append(try put(card, image))
        done.append(card)
      } catch { failures.append("\(card.output): \(error)") }
    }
    timer.arm(after: UInt64(max(0, seconds)) * 1_000_000_000)
    return (done, failures)
  }

  /// Takes the cards away (on the timer, or at once).
  public func remove() {
    timer.disarm()
    for id in shown { surfaces.close(id) }
    shown = []
  }

  /// Forgets a card the host released (its head went, or the compositor closed it), so
  /// that it is never closed again.
  public func forget(_ event: SurfaceEvent) {
    switch event {
    case .closed(let id), .headGone(let id): shown.removeAll { $0 == id }
    case .exposed, .mirrorSourceLost: break
    }
  }

  /// The card's picture: at the head's pixels where the host shows pictures so, else at the
  /// card's size.
  func draw(_ card: IdentifyCard) -> RenderedImage? {
    let k = surfaces.picturesAtHeadPixels ? card.density : 1
    return IdentifyRenderer.render(
      title: card.output, lines: card.lines, width: Int((Double(card.rect.width) * k).rounded()),
      height: Int((Double(card.rect.height) * k).rounded()), titleHeight: card.titleHeight * k)
  }

  private func put(_ card: IdentifyCard, _ image: RenderedImage) throws(DisplayError) -> SurfaceID {
    let background = IdentifyRenderer.background
    let spec = SurfaceSpec(
      head: card.output, rect: card.rect, level: .overlay, background: background, coversHead: false)
    let id = try surfaces.open(spec)
    do {
      try surfaces.show(PlaceholderPicture(image: image, background: background), on: id)
    } catch {
      surfaces.close(id)
      throw error
    }
    return id
  }
}
