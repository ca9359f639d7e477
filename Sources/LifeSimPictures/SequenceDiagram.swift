import LifeSimEngine

/// What a sequence diagram shows.
public struct SequenceOptions: Sendable {
  /// The range shown, in virtual seconds (default: the whole trace).
  public var from: Double?
  public var to: Double?
  public var title = "lifesim sequence"
  /// The rows drawn at most; the rest are counted (a week's trace has
  /// hundreds of thousands). 1,200 rows keep the picture under the 32,767
  /// pixels renderers such as rsvg-convert draw.
  public var maxRows = 1200
  /// What a column of device N is called beside its number ("iOS 17").
  public var deviceNames: [Int: String] = [:]

  public init() {}
}

/// A trace as a UML sequence diagram: time runs down, one column (a
/// lifeline) for the user, one for iOS and one per app and per scene; one
/// labelled row per action, callback, notification, kill, expiration and
/// data loss, in the trace's order. An app's lifeline is drawn as a bar in
/// the colour of its state. It is what people draw by hand to answer a
/// lifecycle question ("which callbacks, in which order, from which step").
public final class SequenceDiagram {
  let options: SequenceOptions

  private struct ColumnKey: Hashable {
    /// 0: the user, 1: iOS, 2: an app or a scene.
    var role: Int
    var device: Int
    var app: String?
    var scene: Int?
  }
  private enum RowKind { case action, callback, notification, kill, expire, dataLoss }
  private struct Row {
    var time: Int64
    var kind: RowKind
    var from: Int
    var to: Int
    var label: String
  }

  private var columns: [ColumnKey] = []
  private var columnIndex: [ColumnKey: Int] = [:]
  private var appOrder: [String: Int] = [:]
  /// What was read, per device in its (time) order: rows, and state changes
  /// (`stateColumn` set), at most `maxRows` rows per device.
  private struct Item {
    var row: Row
    var stateColumn = -1
    var state = ""
  }
  private var items: [Int: [Item]] = [:]
  private var rowsRead: [Int: Int] = [:]
  /// The rows drawn, in time order, and before each the state changes then.
  private var rows: [Row] = []
  private var stateChanges: [[(column: Int, state: String)]] = [[]]
  /// Records in range past `maxRows`.
  public private(set) var leftOut = 0
  /// Rows read in range, drawn or not.
  public private(set) var inRange = 0
  private var devices = Set<Int>()

  public init(options: SequenceOptions) { self.options = options }

  private var fromMicros: Int64 { options.from.map { Int64(($0 * 1_000_000).rounded()) } ?? Int64.min }
  private var toMicros: Int64 { options.to.map { Int64(($0 * 1_000_000).rounded()) } ?? Int64.max }

  private func column(_ key: ColumnKey) -> Int {
    if let i = columnIndex[key] { return i }
    columns.append(key)
    columnIndex[key] = columns.count - 1
    if let app = key.app, appOrder["\(key.device) \(app)"] == nil { appOrder["\(key.device) \(app)"] = appOrder.count }
    return columns.count - 1
  }

  private func appColumn(_ e: TimelineEvent, scene: Bool) -> Int? {
    guard let app = e.app else { return nil }
    // A scene's column comes after its app's.
    if scene, e.scene != nil { _ = column(ColumnKey(role: 2, device: e.device, app: app, scene: nil)) }
    return column(ColumnKey(role: 2, device: e.device, app: app, scene: scene ? e.scene : nil))
  }

  /// Takes one record, in the trace's order.
  public func add(_ e: TimelineEvent) {
    devices.insert(e.device)
    guard e.time >= fromMicros, e.time <= toMicros else { return }
    if e.kind == .state {
      guard let to = e.to, let c = appColumn(e, scene: true), rowsRead[e.device, default: 0] < options.maxRows else { return }
      items[e.device, default: []].append(Item(row: Row(time: e.time, kind: .callback, from: c, to: c, label: ""), stateColumn: c, state: to))
      return
    }
    let user = { self.column(ColumnKey(role: 0, device: e.device)) }
    let system = { self.column(ColumnKey(role: 1, device: e.device)) }
    var row: Row
    switch e.kind {
    case .action:
      let target = appColumn(e, scene: false) ?? system()
      row = Row(time: e.time, kind: .action, from: user(), to: target,
                label: (e.name ?? "action") + (e.detail.map { " " + $0 } ?? ""))
    case .callback:
      guard let target = appColumn(e, scene: true) else { return }
      row = Row(time: e.time, kind: .callback, from: system(), to: target, label: Timeline.shortName(e.name ?? "callback"))
    case .notification:
      guard let target = appColumn(e, scene: false) else { return }
      row = Row(time: e.time, kind: .notification, from: system(), to: target, label: e.name ?? "notification")
    case .kill:
      guard let target = appColumn(e, scene: false) else { return }
      row = Row(time: e.time, kind: .kill, from: system(), to: target,
                label: "killed (\(e.reason ?? "?"))" + (e.detail.map { ", \($0)" } ?? ""))
    case .expire:
      guard let target = appColumn(e, scene: false) else { return }
      row = Row(time: e.time, kind: .expire, from: system(), to: target, label: "expiration of task \(e.detail ?? "?")")
    case .dataLoss:
      guard let target = appColumn(e, scene: false) else { return }
      row = Row(time: e.time, kind: .dataLoss, from: target, to: target,
                label: "data loss: \(e.unsaved.map(String.init) ?? "?") unsaved")
    default:
      return
    }
    inRange += 1
    guard rowsRead[e.device, default: 0] < options.maxRows else { return }
    rowsRead[e.device, default: 0] += 1
    items[e.device, default: []].append(Item(row: row))
  }

  /// The devices' items merged in time order (each device's are in order
  /// already; at one time, the lower device first), cut at `maxRows` rows.
  private func arrange() {
    var merged: [Item] = []
    for device in items.keys.sorted() { merged += items[device]! }
    var order = Array(merged.indices)
    order.sort { merged[$0].row.time != merged[$1].row.time ? merged[$0].row.time < merged[$1].row.time : $0 < $1 }
    rows = []
    stateChanges = [[]]
    for i in order {
      let item = merged[i]
      if item.stateColumn >= 0 {
        if rows.count < options.maxRows { stateChanges[rows.count].append((item.stateColumn, item.state)) }
      } else if rows.count < options.maxRows {
        rows.append(item.row)
        stateChanges.append([])
      }
    }
    leftOut = inRange - rows.count
  }

  // MARK: Drawing

  private func columnTitle(_ key: ColumnKey) -> String {
    let device = devices.count > 1 ? (options.deviceNames[key.device].map { "\(key.device) (\($0)): " } ?? "\(key.device): ") : ""
    switch key.role {
    case 0: return device + "user"
    case 1: return device + "iOS"
    default: return device + (key.app ?? "?") + (key.scene.map { " scene \($0)" } ?? "")
    }
  }

  /// The columns left to right: per device the user, iOS, then each app
  /// with its scenes after it, in the order they first appear.
  private var order: [Int] {
    columns.indices.sorted { a, b in
      let x = columns[a], y = columns[b]
      if x.device != y.device { return x.device < y.device }
      if x.role != y.role { return x.role < y.role }
      let ax = x.app.flatMap { appOrder["\(x.device) \($0)"] } ?? 0, ay = y.app.flatMap { appOrder["\(y.device) \($0)"] } ?? 0
      if ax != ay { return ax < ay }
      return (x.scene ?? -1) < (y.scene ?? -1)
    }
  }

  public func svg() -> String {
    arrange()
    let ordered = order
    var xOf = [Double](repeating: 0, count: columns.count)
    let longest = rows.map { SVG.textWidth($0.label, size: 11) }.max() ?? 0
    let titleWidth = columns.map { SVG.textWidth(columnTitle($0), size: 12, bold: true) }.max() ?? 0
    let spacing = max(130, min(340, max(longest * 0.75, titleWidth) + 30))
    let left = 96.0, top = 96.0, rowHeight = 22.0
    for (k, c) in ordered.enumerated() { xOf[c] = left + spacing / 2 + Double(k) * spacing }
    let width = max(520, left + Double(ordered.count) * spacing + 40 + max(0, longest - spacing))
    let bottom = top + Double(rows.count) * rowHeight + 16
    let footer = leftOut > 0 ? 24.0 : 0
    let height = bottom + 44 + footer + 40

    var out = SVG.page(width: width, height: height, title: options.title, subtitle: caption)
    // An arrowhead per colour (context-stroke is not drawn by every renderer).
    out += "<defs>"
    for colour in SequenceDiagram.colours {
      out += "<marker id=\"arrow\(colour.dropFirst())\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
      out += "<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"\(colour)\"/></marker>"
    }
    out += "</defs>\n"
    // Lifelines and their heads (top and bottom, as UML draws them).
    for c in ordered {
      let x = xOf[c], title = columnTitle(columns[c])
      let w = SVG.textWidth(title, size: 12, bold: true) + 16
      out += "<line x1=\"\(SVG.n(x))\" y1=\"\(SVG.n(top - 14))\" x2=\"\(SVG.n(x))\" y2=\"\(SVG.n(bottom))\" stroke=\"#bbbbbb\" stroke-dasharray=\"4 3\"/>\n"
      for y in [top - 40, bottom] {
        out += "<rect x=\"\(SVG.n(x - w / 2))\" y=\"\(SVG.n(y))\" width=\"\(SVG.n(w))\" height=\"24\" rx=\"3\" fill=\"#f4f4f4\" stroke=\"#444444\"/>"
        out += "<text x=\"\(SVG.n(x))\" y=\"\(SVG.n(y + 16))\" text-anchor=\"middle\" font-weight=\"bold\">\(SVG.escape(title))</text>\n"
      }
    }
    // State bars on the apps' and scenes' lifelines.
    var open: [Int: (state: String, y: Double)] = [:]
    func close(_ c: Int, at y: Double) {
      guard let o = open[c], y > o.y else { return }
      let colour = Timeline.stateColour[o.state] ?? "#dddddd"
      out += "<rect x=\"\(SVG.n(xOf[c] - 4))\" y=\"\(SVG.n(o.y))\" width=\"8\" height=\"\(SVG.n(y - o.y))\" fill=\"\(colour)\" stroke=\"#333333\" stroke-width=\"0.5\">"
      out += "<title>\(SVG.escape(columnTitle(columns[c]) + ": " + o.state))</title></rect>\n"
    }
    for (i, changes) in stateChanges.enumerated() {
      let y = top + Double(i) * rowHeight
      for (c, state) in changes {
        close(c, at: y)
        open[c] = state == "notRunning" || state == "detached" || state == "unattached" ? nil : (state, y)
      }
    }
    for c in open.keys.sorted() { close(c, at: bottom) }
    // Rows.
    var lastTime = Int64.min
    for (i, r) in rows.enumerated() {
      let y = top + Double(i) * rowHeight + rowHeight / 2 + 4
      if r.time != lastTime {
        out += "<text x=\"\(SVG.n(left - 12))\" y=\"\(SVG.n(y + 4))\" text-anchor=\"end\" fill=\"#555555\" font-size=\"11\">"
        out += "\(Timeline.format3(Double(r.time) / 1_000_000)) s</text>\n"
        if lastTime != .min {
          out += "<line x1=\"20\" y1=\"\(SVG.n(y - rowHeight / 2 - 2))\" x2=\"\(SVG.n(width - 20))\" y2=\"\(SVG.n(y - rowHeight / 2 - 2))\" stroke=\"#eeeeee\"/>\n"
        }
        lastTime = r.time
      }
      let (colour, dash): (String, String) = {
        switch r.kind {
        case .action: return ("#0072B2", "")
        case .callback: return ("#111111", "")
        case .notification: return ("#888888", " stroke-dasharray=\"5 3\"")
        case .kill: return ("#D55E00", "")
        case .expire: return ("#0072B2", " stroke-dasharray=\"2 2\"")
        case .dataLoss: return ("#CC79A7", "")
        }
      }()
      let x0 = xOf[r.from], x1 = xOf[r.to]
      let textColour = r.kind == .notification ? "#666666" : colour
      if r.from == r.to {
        // A note on the lifeline (data loss).
        out += "<circle cx=\"\(SVG.n(x0))\" cy=\"\(SVG.n(y))\" r=\"5\" fill=\"\(colour)\"/>"
        out += "<text x=\"\(SVG.n(x0 + 10))\" y=\"\(SVG.n(y + 4))\" font-size=\"11\" fill=\"\(textColour)\">\(SVG.escape(r.label))</text>\n"
        continue
      }
      let toward = x1 > x0 ? -6.0 : 6.0
      out += "<line x1=\"\(SVG.n(x0))\" y1=\"\(SVG.n(y))\" x2=\"\(SVG.n(x1 + toward))\" y2=\"\(SVG.n(y))\" stroke=\"\(colour)\" stroke-width=\"1.3\"\(dash) marker-end=\"url(#arrow\(colour.dropFirst()))\"/>"
      if r.kind == .kill {
        out += "<path d=\"M \(SVG.n(x1 - 6)) \(SVG.n(y - 6)) L \(SVG.n(x1 + 6)) \(SVG.n(y + 6)) M \(SVG.n(x1 + 6)) \(SVG.n(y - 6)) L \(SVG.n(x1 - 6)) \(SVG.n(y + 6))\" stroke=\"#D55E00\" stroke-width=\"2.5\"/>"
      }
      let labelX = min(x0, x1) + 8
      out += "<text x=\"\(SVG.n(labelX))\" y=\"\(SVG.n(y - 4))\" font-size=\"11\" fill=\"\(textColour)\" stroke=\"#ffffff\" stroke-width=\"3\" "
      out += "stroke-linejoin=\"round\" paint-order=\"stroke\">\(SVG.escape(r.label))</text>\n"
    }
    var y = bottom + 44
    if leftOut > 0 {
      y += 16
      out += "<text x=\"20\" y=\"\(SVG.n(y))\" fill=\"#D55E00\">\(SVG.escape(leftOutText))</text>\n"
    }
    y += 22
    out += "<text x=\"20\" y=\"\(SVG.n(y))\" fill=\"#555555\" font-size=\"11\">"
    out += "blue: the user's actions; black: callbacks; grey dashed: notifications; orange ×: kills; dotted: expirations; "
    out += "pink: data loss; a lifeline's bar: the state (green active, yellow inactive, light blue background, grey suspended)</text>\n"
    return out + "</svg>\n"
  }

  static let colours = ["#0072B2", "#111111", "#888888", "#D55E00", "#CC79A7"]

  /// What the picture leaves out, when it had to.
  public var leftOutText: String {
    "… \(leftOut) more record\(leftOut == 1 ? "" : "s") after the first \(options.maxRows) rows: draw a shorter range with --from and --to"
  }

  private var caption: String {
    guard let first = rows.first, let last = rows.last else { return "nothing in range" }
    return "\(Timeline.format3(Double(first.time) / 1_000_000)) s to \(Timeline.format3(Double(last.time) / 1_000_000)) s, "
      + "\(rows.count) row\(rows.count == 1 ? "" : "s"); time runs down"
  }

  /// Draws the records that `each` gives, in order (one pass).
  public static func render(options: SequenceOptions, _ each: ((TimelineEvent) throws -> Void) throws -> Void) rethrows
    -> (svg: String, leftOut: String?)
  {
    let d = SequenceDiagram(options: options)
    try each { d.add($0) }
    let svg = d.svg()
    if d.rows.isEmpty { return (svg, "no action, callback or kill in the range asked: the picture is empty") }
    return (svg, d.leftOut > 0 ? d.leftOutText : nil)
  }
}
