import Foundation
import Testing

/// `lifesim summary --ci` and `--compare`: intervals that stay where the
/// values can be, and paired differences by seed, checked against scipy.
struct SummaryStatisticsTests {
  /// kills: seed 4 kills 5 times, the others never (a count: never below 0).
  /// v: the seed's level (10 × seed) plus policy b's effect (2, 1, 2, 1), so
  /// the points' intervals overlap widely but the paired differences do not.
  static let experiment = """
    return lifesim.experiment{
      name = "counts", params = { policy = { "a", "b" } }, seeds = 4,
      run = function(p, seed)
        return { kills = seed == 4 and 5 or 0, v = seed * 10 + (p.policy == "b" and (seed % 2 + 1) or 0) }
      end,
    }
    """

  static func results() throws -> String {
    let out = tempPath("counts-\(UUID().uuidString).csv")
    let r = try lifesim(["batch", try script("summary-counts.lua", experiment), "-o", out, "--quiet"])
    #expect(r.status == 0 && r.stdout.isEmpty, "--quiet prints no table: \(r.stdout)\(r.stderr)")
    return out
  }

  @Test func aCountsIntervalNeverGoesBelowZeroAndTheMethodIsNamed() throws {
    let out = try Self.results()
    defer { try? FileManager.default.removeItem(atPath: out) }
    // Student's t would give [-2.728, 5.228] (mean 1.25, sd 2.5, n 4): auto
    // takes the bootstrap there, marks it and says why.
    let auto = try lifesim(["summary", out])
    #expect(auto.stdout.contains("a           0 4 1.25 2.5 [0, 3.75]*   0 4.25"), "\(auto.stdout)")
    #expect(auto.stdout.contains("* bootstrap percentile interval (9999 resamples, seed 1): Student's t would cross 0"), "\(auto.stdout)")
    // v never comes near 0: Student's t, unmarked.
    #expect(auto.stdout.contains("[4.458, 45.54]  "), "\(auto.stdout)")
    #expect(try lifesim(["summary", out]).stdout == auto.stdout, "the bootstrap is seeded")

    let t = try lifesim(["summary", out, "--ci", "t"])
    #expect(t.stdout.contains("95% CI: Student's t\n") && t.stdout.contains("[-2.728, 5.228]"), "\(t.stdout)")
    let boot = try lifesim(["summary", out, "--ci", "bootstrap"])
    #expect(boot.stdout.contains("95% CI: bootstrap percentile (9999 resamples, seed 1)"), "\(boot.stdout)")
    #expect(!boot.stdout.contains("]*"), "an explicit method marks nothing: \(boot.stdout)")

    let csv = try lifesim(["summary", out, "--format", "csv"]).stdout
    #expect(csv.contains("a,kills,4,0,4,1.25,2.5,0,3.75,bootstrap,"), "\(csv)")
    #expect(csv.contains(",t,25,"), "\(csv)")
    let json = try lifesim(["summary", out, "--format", "json"]).stdout
    #expect(json.contains(#""ci95":[0,3.75],"ci_method":"bootstrap""#), "\(json)")
    let md = try lifesim(["summary", out, "--format", "markdown"]).stdout
    #expect(md.contains("[0, 3.75]*") && md.contains("\\* bootstrap percentile interval"), "\(md)")
    let bad = try lifesim(["summary", out, "--ci", "wald"])
    #expect(bad.status == 64 || bad.status == 2, "\(bad.stderr)")
    #expect(bad.stderr.contains("auto") && bad.stderr.contains("bootstrap"), "\(bad.stderr)")
  }

  @Test func pairedDifferencesBySeedAgreeWithScipy() throws {
    let out = try Self.results()
    defer { try? FileManager.default.removeItem(atPath: out) }
    // scipy.stats.ttest_rel([12, 21, 32, 41], [10, 20, 30, 40]): statistic
    // 5.196152422706632, pvalue 0.013846832988859045, df 3.
    let text = try lifesim(["summary", out, "--compare", "policy"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("b − a      4       1.5 0.5774 [0.5813, 2.419] 5.196  3 0.01385"), "\(text.stdout)")
    let csv = try lifesim(["summary", out, "--compare", "policy", "--format", "csv"]).stdout
    let row = csv.split(separator: "\n").first { $0.hasPrefix("v,") }.map { $0.split(separator: ",").map(String.init) } ?? []
    #expect(csv.hasPrefix("metric,policy,baseline,pairs,mean_diff,sd,ci_low,ci_high,t,df,p,left_out\n"), "\(csv)")
    #expect(row.count == 12 && row[1] == "b" && row[2] == "a" && row[3] == "4" && row[9] == "3", "\(csv)")
    #expect(abs(Double(row[8])! - 5.196152422706632) < 1e-12 && abs(Double(row[10])! - 0.013846832988859045) < 1e-12, "\(csv)")
    let json = try lifesim(["summary", out, "--compare", "policy", "--format", "json"]).stdout
    #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "\(json)")
    #expect(json.contains(#""metric":"v","value":"b","pairs":4,"mean_diff":1.5"#), "\(json)")
    let md = try lifesim(["summary", out, "--compare", "policy", "--format", "markdown"]).stdout
    #expect(md.contains("| b − a | 4 | 1.5 | 0.5774 | [0.5813, 2.419] | 5.196 | 3 | 0.01385 |"), "\(md)")
    // The other way round: the differences change sign, the test does not.
    let reversed = try lifesim(["summary", out, "--compare", "policy", "--baseline", "b"]).stdout
    #expect(reversed.contains("a − b      4      -1.5 0.5774 [-2.419, -0.5813] -5.196  3 0.01385"), "\(reversed)")

    let none = try lifesim(["summary", out, "--compare", "memory"])
    #expect(none.status != 0 && none.stderr.contains("has no parameter 'memory': its parameters are policy"), "\(none.stderr)")
    let wrong = try lifesim(["summary", out, "--compare", "policy", "--baseline", "c"])
    #expect(wrong.status != 0 && wrong.stderr.contains("'policy' takes a, b"), "\(wrong.stderr)")
  }

  /// A failed run has no partner: its seed is left out, and said.
  @Test func pairedTestsWithFailedAndMissingRunsLeaveThemOut() throws {
    let exp = try script("summary-fails.lua", """
      return lifesim.experiment{
        name = "fails", params = { policy = { "a", "b" } }, seeds = 5,
        run = function(p, seed)
          if p.policy == "b" and seed == 2 then error("no") end
          return { v = seed + (p.policy == "b" and 1 or 0) + (seed == 5 and p.policy == "b" and 1 or 0) }
        end,
      }
      """)
    let out = tempPath("fails-\(UUID().uuidString).csv")
    defer { try? FileManager.default.removeItem(atPath: out) }
    _ = try lifesim(["batch", exp, "-o", out, "--quiet"])
    let r = try lifesim(["summary", out, "--compare", "policy"])
    #expect(r.status == 0, "\(r.stderr)")
    // Pairs at seeds 1, 3, 4, 5: differences 1, 1, 1, 2. scipy.stats.ttest_1samp([1, 1, 1, 2], 0):
    // statistic 5.0, pvalue 0.015392438073302294; the interval [0.4544, 2.046].
    #expect(r.stdout.contains("b − a      4      1.25 0.5 [0.4544, 2.046] 5  3 0.01539"), "\(r.stdout)")
    #expect(r.stdout.contains("1 seed left out: a run at one value only, a failed run or a non-finite value"), "\(r.stdout)")
  }

  /// Parameters named as the comparison's columns are renamed; a label in
  /// one run leaves that seed out; a seed that failed at both values is
  /// counted; a seed twice at one point is refused; an overflowing spread
  /// gives no interval and no test.
  @Test func oddFilesAreComparedOrRefusedClearly() throws {
    let exp = try script("summary-odd.lua", """
      return lifesim.experiment{
        name = "odd", params = { p = { "a", "b" }, pairs = { 1 } }, seeds = 4,
        run = function(q, seed)
          if seed == 4 then error("both fail") end
          local m = (seed == 3 and q.p == "b") and "label" or seed + (q.p == "b" and 1 or 0)
          local big = (q.p == "b" and -1 or 1) * 1.7e308 * (seed % 2 == 0 and 1 or 0.99)
          return { m = m, big = big }
        end,
      }
      """)
    let out = tempPath("odd-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(atPath: out) }
    _ = try lifesim(["batch", exp, "-o", out, "--quiet"])
    let r = try lifesim(["summary", out, "--compare", "p"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("param:pairs param:p pairs mean diff"), "\(r.stdout)")
    // m: seeds 1 and 2 pair (differences 1, 1); seed 3 has a label at b, seed 4 failed at both.
    #expect(r.stdout.contains("1           b − a       2         1  0 [1, 1] -  - -"), "\(r.stdout)")
    // Equal differences: no t and no p, as R's t.test refuses constant data.
    #expect(r.stdout.contains("a row with no t has differences all equal"), "\(r.stdout)")
    #expect(r.stdout.contains("2 seeds left out") && r.stdout.contains("4 seeds left out"), "\(r.stdout)")
    // big: every difference overflows (about -3.4e308): left out, as non-finite values are.
    let csv = try lifesim(["summary", out, "--compare", "p", "--format", "csv"]).stdout
    #expect(csv.hasPrefix("param:pairs,metric,param:p,baseline,pairs,mean_diff,"), "\(csv)")
    #expect(csv.contains("1,big,b,a,0,,,,,,,,4\n"), "\(csv)")

    let twice = tempPath("twice-\(UUID().uuidString).csv")
    defer { try? FileManager.default.removeItem(atPath: twice) }
    try "run,p,seed,status,v,error\n0,a,1,ok,1,\n1,a,1,ok,2,\n2,b,1,ok,3,\n".write(toFile: twice, atomically: true, encoding: .utf8)
    let dup = try lifesim(["summary", twice, "--compare", "p"])
    #expect(dup.status != 0 && dup.stderr.contains("seed 1 comes twice at p = a"), "\(dup.stderr)")
  }
}
