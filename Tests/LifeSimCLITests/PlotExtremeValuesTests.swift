import Foundation
import Testing

/// `lifesim plot` of finite values near ±1.8e308, whose axis spans more than
/// a Double holds: every point is drawn where it belongs, with no NaN
/// coordinate and no "inf" tick.
struct PlotExtremeValuesTests {
  private static let dir: URL = {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-plot-extremes-\(getpid())")
    try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    return d
  }()

  private func plot(_ name: String, _ rows: [String], _ args: [String]) throws -> String {
    let file = Self.dir.appendingPathComponent("\(name).csv").path
    try (["run,x,seed,status,m,error"] + rows).joined(separator: "\n").appending("\n")
      .write(toFile: file, atomically: true, encoding: .utf8)
    let svg = Self.dir.appendingPathComponent("\(name).svg").path
    let r = try lifesim(["plot", file, "--metric", "m", "-o", svg] + args)
    #expect(r.status == 0, "\(name): \(r.stderr)")
    let text = contents(svg)
    #expect(!text.contains("nan") && !text.contains("inf"), "\(name): \(text)")
    return text
  }

  private static func circles(_ svg: String) -> [String] {
    svg.split(separator: "\n").filter { $0.hasPrefix("<circle") }.map {
      let cx = $0.range(of: "cx=\"")!.upperBound, cy = $0.range(of: "cy=\"")!.upperBound
      return "\($0[cx...].prefix { $0 != "\"" }),\($0[cy...].prefix { $0 != "\"" })"
    }
  }

  @Test func meansNearBothEndsOfTheDoubleRange() throws {
    let svg = try plot("y", ["0,1,1,ok,1.7e308,", "1,1,2,ok,1.7e308,", "2,2,1,ok,-1.7e308,", "3,2,2,ok,-1.7e308,", "4,3,1,ok,0,"], ["--x-continuous"])
    // The top of the plot, its bottom, and half way (x to scale: few values
    // are otherwise drawn as equally spaced categories).
    #expect(Self.circles(svg) == ["84.0,56.0", "410.0,416.0", "736.0,236.0"], "\(svg)")
    #expect(svg.contains(">1.7e+308</text>") && svg.contains(">-1.7e+308</text>"), "\(svg)")
  }

  @Test func parameterValuesNearBothEndsOfTheDoubleRange() throws {
    let svg = try plot("x", ["0,-1.7e308,1,ok,1,", "1,1.7e308,1,ok,2,"], ["--x", "x", "--x-continuous"])
    #expect(Self.circles(svg) == ["84.0,236.0", "736.0,56.0"], "\(svg)")
  }

  @Test func oneParameterValueNearTheLargestDouble() throws {
    let svg = try plot("one", ["0,1.7e308,1,ok,1,", "1,1.7e308,2,ok,2,"], ["--x", "x"])
    #expect(Self.circles(svg).count == 1, "\(svg)")
  }
}
