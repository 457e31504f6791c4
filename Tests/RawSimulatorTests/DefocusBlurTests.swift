import Foundation
import RawFiles
import RawJobs
@testable import RawSimulator
import RawSources
import Testing

/// The box filter behind the defocus blur, against a direct evaluation of its definition.
@Suite struct DefocusBlurTests {
    /// Mean of the piecewise-constant signal `values` (extended flat past both ends) over [a, b].
    static func reference(_ values: [Float], _ a: Double, _ b: Double) -> Double {
        // Integrate by unit cells, clamping outside cells to the end values.
        var sum = 0.0
        var t = a
        while t < b {
            let cell = t.rounded(.down)
            let next = min(b, cell + 1)
            let index = min(max(Int(cell), 0), values.count - 1)
            sum += Double(values[index]) * (next - t)
            t = next
        }
        return sum / (b - a)
    }

    @Test("boxLine equals the mean over [j − h − ½, j + h + ½] for runs of equal and varying half-widths")
    func boxLineMatchesItsDefinition() {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<60 {
            let n = trial < 5 ? trial + 1 : Int.random(in: 6...300, using: &generator)
            let values = (0..<n).map { _ in Float.random(in: 0...1, using: &generator) }
            var widths: [Float] = []
            while widths.count < n {
                // Runs of one width (a surface at one depth), some wider than the line itself.
                let width = Float.random(in: 0.35...Float(trial % 3 == 0 ? 400 : 12), using: &generator)
                widths += Array(repeating: width, count: Int.random(in: 1...80, using: &generator))
            }
            widths = Array(widths.prefix(n))
            let scratch = DefocusBlur.LineScratch(length: n)
            defer { scratch.deallocate() }
            for j in 0..<n {
                scratch.line[j] = values[j]
                scratch.widths[j] = widths[j]
            }
            DefocusBlur.boxLine(scratch, count: n)
            for j in 0..<n {
                let half = Double(widths[j]) + 0.5
                let expected = Self.reference(values, Double(j) + 0.5 - half, Double(j) + 0.5 + half)
                #expect(abs(Double(scratch.result[j]) - expected) < 1e-5,
                        "n \(n), sample \(j), half-width \(widths[j]): \(scratch.result[j]) vs \(expected)")
            }
        }
    }

    @Test("apply blurs each CFA sub-plane separably: rows, then columns, with each pixel's own width")
    func applyIsSeparablePerSubPlane() {
        var generator = SystemRandomNumberGenerator()
        let w = 70, h = 46 // several vertical blocks of 32 sub-columns, odd sub-plane counts
        let source = FloatPlane(width: w, height: h), depth = FloatPlane(width: w, height: h)
        for i in 0..<(w * h) {
            source.values[i] = Float.random(in: 0...1, using: &generator)
            depth.values[i] = i % w < w / 2 ? 0.8 : 3 // two surfaces at different distances
        }
        let blur = DefocusBlur(focusMetres: 1.5, fNumber: 2, focalLength: 50, pixelPitch: 20)
        let output = FloatPlane(width: w, height: h)
        blur.apply(source: source, depth: depth, rows: 0..<h, columns: 0..<w, into: output)
        func width(_ row: Int, _ column: Int) -> Double { blur.halfWidth(depth: Double(depth[row, column])) }
        // Rows: each sub-row filtered with its samples' widths.
        var horizontal = [[Double]](repeating: [Double](repeating: 0, count: w), count: h)
        for row in 0..<h {
            for phase in 0..<2 {
                let line = stride(from: phase, to: w, by: 2).map { source[row, $0] }
                for (j, column) in stride(from: phase, to: w, by: 2).enumerated() {
                    let half = Double(Float(width(row, column))) + 0.5
                    horizontal[row][column] = Self.reference(line, Double(j) + 0.5 - half, Double(j) + 0.5 + half)
                }
            }
        }
        for column in 0..<w {
            for phase in 0..<2 {
                let line = stride(from: phase, to: h, by: 2).map { Float(horizontal[$0][column]) }
                for (i, row) in stride(from: phase, to: h, by: 2).enumerated() {
                    let half = Double(Float(width(row, column))) + 0.5
                    let expected = Self.reference(line, Double(i) + 0.5 - half, Double(i) + 0.5 + half)
                    #expect(abs(Double(output[row, column]) - expected) < 1e-5, "(\(row), \(column))")
                }
            }
        }
        #expect(width(0, 0) > 1 && width(0, w - 1) > 1 && width(0, 0) != width(0, w - 1))
    }
}
