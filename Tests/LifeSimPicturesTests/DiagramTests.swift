import Foundation
import Testing
import LifeSimEngine
@testable import LifeSimPictures

/// `lifesim diagram` draws from the engine's tables: every edge of a table is
/// an edge of its diagram, silent edges are dashed, and in the SVG no label
/// touches another label or a state.
struct DiagramTests {
  @Test(arguments: [(DiagramMachine.process, 12), (.process, 17), (.scene, 17), (.vc, 17), (.process, 5)])
  func everyEdgeOfTheTableIsDrawn(machine: DiagramMachine, ios: Int) throws {
    let d = try StateDiagram.make(machine: machine, ios: ios)
    let count: Int
    switch machine {
    case .process: count = AppLifecycle.table(for: ios >= 13 ? .scene : .appDelegate).transitions.count
    case .scene: count = SceneLifecycle.table.transitions.count
    default: count = AppearanceLifecycle.table.transitions.count
    }
    #expect(d.edges.count == count)
    let dot = d.dot()
    // The note of the iOS 13+ process machine is tied to it by an edge of its own.
    #expect(dot.components(separatedBy: " -> ").count - 1 - dot.components(separatedBy: "  note -> ").count + 1 == count)
    #expect(dot.components(separatedBy: "style=dashed").count - 1 == d.edges.filter(\.silent).count)
    let mermaid = d.mermaid()
    #expect(mermaid.components(separatedBy: ".->").count - 1 == d.edges.filter(\.silent).count)
    let svg = d.svg()
    #expect(svg.components(separatedBy: "stroke-dasharray=\"6 4\"").count - 1 == d.edges.filter(\.silent).count + 1)  // + the key
    #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
  }

  @Test func theProfileDecidesTheCallbacks() throws {
    let old = try StateDiagram.make(machine: .process, ios: 5)
    let launch = try #require(old.edges.first { $0.event == "launch" })
    #expect(!launch.callbacks.contains("application:willFinishLaunchingWithOptions:"))  // iOS 6 and later (§7 row 6)
    let new = try StateDiagram.make(machine: .process, ios: 12)
    #expect(new.edges.first { $0.event == "launch" }?.callbacks.first == "application:willFinishLaunchingWithOptions:")
    #expect(throws: DiagramError.self) { try StateDiagram.make(machine: .scene, ios: 12) }
    #expect(throws: DiagramError.self) { try StateDiagram.make(machine: .process, ios: 12, model: .scene) }
  }

  /// The label boxes the SVG draws, read back from it: none overlaps another.
  @Test(arguments: [DiagramMachine.process, .scene, .vc])
  func labelsDoNotOverlap(machine: DiagramMachine) throws {
    for (ios, model) in [(12, LifecycleModel.appDelegate), (17, .scene), (17, .appDelegate)] {
      if machine != .process && model == .appDelegate { continue }  // one diagram per version for these
      let svg = try StateDiagram.make(machine: machine, ios: ios, model: machine == .process ? model : nil).svg()
      var boxes: [Box] = []
      for line in svg.split(separator: "\n") where line.contains("<rect x=") {
        func value(_ name: String) -> Double? {
          guard let r = line.range(of: " \(name)=\"") else { return nil }
          return Double(line[r.upperBound...].prefix { $0 != "\"" })
        }
        guard let x = value("x"), let y = value("y"), let w = value("width"), let h = value("height") else { continue }
        boxes.append(Box(x0: x, y0: y, x1: x + w, y1: y + h))
      }
      #expect(boxes.count > 5)
      for i in boxes.indices {
        for j in boxes.indices where j > i {
          #expect(!boxes[i].intersects(boxes[j], margin: 0), "\(machine) iOS \(ios): boxes \(i) and \(j) overlap")
        }
      }
    }
  }
}

/// The timeline's colour rules: Okabe–Ito colours, and a state
/// never told by colour alone (each colour has its own band height).
struct TimelinePaletteTests {
  static let okabeIto: Set<String> = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
                                      "#000000", "#999999"]

  @Test func stateColoursAreOkabeItoAndEachHasItsOwnHeight() {
    #expect(Set(Timeline.stateColour.values).isSubset(of: Self.okabeIto), "\(Timeline.stateColour)")
    #expect(Set(Timeline.stateColour.keys) == Set(Timeline.stateHeight.keys))
    var heightOf: [String: Double] = [:]
    for (state, colour) in Timeline.stateColour {
      let h = Timeline.stateHeight[state]!
      if let other = heightOf[colour] { #expect(other == h, "\(colour) drawn at two heights") }
      heightOf[colour] = h
    }
    #expect(Set(heightOf.values).count == heightOf.count, "two colours share a height: \(heightOf)")
  }

  @Test func theViewControllerDiagramFollowsTheVersion() throws {
    let old = try StateDiagram.make(machine: .vc, ios: 12)
    let back = try StateDiagram.make(machine: .vc, ios: 15)
    let new = try StateDiagram.make(machine: .vc, ios: 17)
    #expect(!old.title.contains("viewIsAppearing"))
    #expect(back.title.contains("viewIsAppearing: (if implemented)"))
    #expect(new.title.hasSuffix("while appearing: viewIsAppearing:"))
  }
}
