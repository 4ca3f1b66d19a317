import CYaml
import Foundation
import SwiftDataGenCore
import SwiftDataGenDiagrams

// Measures the pipeline against libyaml's raw event loop on a synthetic history, in one process
// over the same bytes.
// Usage: swift run -c release swiftdata-gen-bench [versions models properties [runs]] [--write-history DIR]
// With --write-history it only writes the synthetic schema folder (to time the CLI on its own).
let usage = "usage: swiftdata-gen-bench [versions models properties [runs]] [--write-history DIR] [--no-instructions]"
if CommandLine.arguments.contains(where: { ["-h", "--help"].contains($0) }) {
    print(
        usage
            + "\nTimes each pipeline stage against libyaml's raw event pass on a synthetic history (defaults 10 "
            + "200 30 5)."
    )
    exit(0)
}
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
if !arguments.allSatisfy({ $0 > 0 }) || ![0, 3, 4].contains(arguments.count) {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
var history = SyntheticHistory()
if arguments.count >= 3 {
    (history.versions, history.models, history.properties) = (arguments[0], arguments[1], arguments[2])
}
let runs = arguments.count >= 4 ? arguments[3] : 5
let keepFolder = CommandLine.arguments.firstIndex(of: "--write-history").flatMap {
    CommandLine.arguments.dropFirst($0 + 1).first
}

let root =
    keepFolder.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("sdg-bench-\(getpid())")
let schemaFolder = root.appendingPathComponent("Schema").path
let outputFolder = root.appendingPathComponent("Generated").path
try FileManager.default.createDirectory(atPath: schemaFolder, withIntermediateDirectories: true)
defer { if keepFolder == nil { try? FileManager.default.removeItem(at: root) } }
try history.config.write(toFile: schemaFolder + "/swiftdata-gen.yaml", atomically: true, encoding: .utf8)
for v in 1...history.versions {
    try history.versionFile(v).write(
        toFile: schemaFolder + "/\(String(format: "%02d", v)).0.0.yaml", atomically: true, encoding: .utf8)
}

func resourceUsage(children: Bool = false) -> rusage {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
    #endif
    return usage
}

/// Linux counts the peak resident set in KiB, Darwin in bytes.
/// The largest resident set of this process, or of the largest child waited for so far.
func peakRSSMiB(children: Bool = false) -> Double {
    #if canImport(Darwin)
        Double(resourceUsage(children: children).ru_maxrss) / (1024 * 1024)
    #else
        Double(resourceUsage(children: children).ru_maxrss) / 1024
    #endif
}

/// User and system time of the whole process so far: with `generate` on all cores, CPU time
/// above wall time shows how much ran in parallel.
func cpuSeconds() -> Double {
    let usage = resourceUsage()
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return samples.sorted()[samples.count / 2]
}

/// The floor: every event of every file through libyaml, nothing kept.
func rawEventPass(_ files: [SourceFile]) -> Int {
    var events = 0
    for file in files {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        yaml_parser_initialize(parser)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(file.bytes.count, 1))
        file.bytes.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { buffer.initialize(from: base, count: bytes.count) }
        }
        yaml_parser_set_input_string(parser, buffer, file.bytes.count)
        var event = yaml_event_t()
        while yaml_parser_parse(parser, &event) == 1 {
            events += 1
            let done = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            if done { break }
        }
        yaml_parser_delete(parser)
        parser.deallocate()
        buffer.deallocate()
    }
    return events
}

if keepFolder != nil {
    print("wrote \(schemaFolder)")
    exit(0)
}
// `--raw-only DIR`: only libyaml's event pass over a written history, for instruction counts.
if let index = CommandLine.arguments.firstIndex(of: "--raw-only"), CommandLine.arguments.count > index + 1 {
    let read = try SchemaLoader.read(directory: CommandLine.arguments[index + 1]).get()
    print(rawEventPass([read.config].compactMap { $0 } + read.versions))
    exit(0)
}
let sources = try SchemaLoader.read(directory: schemaFolder).get()
let allFiles = [sources.config].compactMap { $0 } + sources.versions
let inputBytes = allFiles.reduce(0) { $0 + $1.bytes.count }
let templates = try SchemaLoader.templates(overrideDirectory: nil).get()
let mib = Double(inputBytes) / 1_048_576

/// The tool's own peak: the CLI's `generate` into an empty folder, then again as a no-op, each a
/// process of its own. Run before this process grows: Linux counts in a spawned child's peak what
/// the parent held when it spawned, so the children's peak is the CLI's only while it is larger.
/// This process's own peak is reported beside it: it holds every stage's output at once.
func cliPeakRSS() -> Double? {
    guard let me = Bundle.main.executablePath else { return nil }
    let cli = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("swiftdata-gen").path
    guard FileManager.default.isExecutableFile(atPath: cli) else { return nil }
    let folder = root.appendingPathComponent("CLIOutput").path
    for _ in 0..<2 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cli)
        process.arguments = ["generate", schemaFolder, "--output", folder, "--quiet"]
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
    }
    return peakRSSMiB(children: true)
}
let benchBeforeCLI = peakRSSMiB()
let cliPeak = cliPeakRSS()
var events = 0
let raw = seconds { events = rawEventPass(allFiles) }
// The same pass with the files spread over the cores, as `generate` spreads them: a second floor.
let rawParallel = seconds {
    DispatchQueue.concurrentPerform(iterations: allFiles.count) { index in _ = rawEventPass([allFiles[index]]) }
}
var nodes: [YAMLNode] = []
let load = seconds { nodes = allFiles.compactMap { YAMLParser.parse($0.bytes, file: $0.displayPath).node } }
var decoded: [VersionFile] = []
let decode = seconds {
    decoded = zip(sources.versions, nodes.dropFirst()).compactMap {
        DSLDecoder.decodeVersion($1, file: $0.relativePath).0
    }
}
let config = DSLDecoder.decodeConfig(nodes[0], file: "swiftdata-gen.yaml").0
var histories: [SchemaHistory] = []
var problems: [Diagnostic] = []
let resolve = seconds { (histories, problems) = HistoryResolver.resolve(config: config, versions: decoded) }
guard !problems.hasErrors, let resolved = histories.first else {
    print(problems.prefix(5).map(\.rendered).joined(separator: "\n"))
    exit(1)
}
var plan: MigrationPlan?
let planning = seconds { plan = MigrationPlanner.plan(resolved).plan }
var files: [GeneratedFile] = []
let render = seconds {
    files = []
    try? SchemaRenderer(history: resolved, plan: plan!, templates: templates, configFile: "swiftdata-gen.yaml").render {
        files.append($0)
    }
}
// The diagram command's work after planning: the latest version and the last step, both formats.
var diagramBytes = 0
let diagrams = seconds {
    guard let plan, let current = try? SchemaPicture.version(nil, of: resolved).get() else { return }
    diagramBytes = MermaidDiagram.render(current).utf8.count + DOTDiagram.render(current).utf8.count
    if let step = try? SchemaPicture.step(nil, of: resolved, plan: plan).get() {
        diagramBytes += MermaidDiagram.render(step).utf8.count + DOTDiagram.render(step).utf8.count
    }
}
var generated: Generator.Output?
let cpuBefore = cpuSeconds()
let pipeline = seconds { generated = Generator.generate(sources, templates: templates) }
let pipelineCPU = (cpuSeconds() - cpuBefore) / Double(runs)

/// What the CLI does: read from disk, generate, compare with the folder, write what changed.
func endToEnd() throws -> Int {
    let read = try SchemaLoader.read(directory: schemaFolder).get()
    var update = FolderUpdate(directory: outputFolder, owner: "bench", mode: .write)
    let (_, diagnostics) = Generator.generate(read, templates: templates) { update.add($0) }
    _ = update.finish()
    var updates = [update]
    guard !diagnostics.hasErrors, FolderUpdate.commit(&updates).isEmpty else { return -1 }
    return update.changed.count
}
let firstWrite = try endToEnd()
var rewritten = 0
let noOp = try seconds { rewritten = try endToEnd() }
let outputFiles = generated?.files ?? []
let outputBytes = outputFiles.reduce(0) { $0 + $1.contents.utf8.count }

func row(_ name: String, _ time: Double) -> String {
    let padded = name.padding(toLength: 36, withPad: " ", startingAt: 0)
    return padded + String(format: "%9.1f ms %9.1f MiB/s %6.2f× raw", time * 1000, mib / time, time / raw)
}
print("synthetic history: \(history.versions) versions × \(history.models) models × \(history.properties) properties")
print(
    String(
        format: "input: %d files, %.2f MiB, %d YAML events; output: %d files, %.2f MiB; %d bridges; median of %d runs",
        allFiles.count, mib, events, outputFiles.count, Double(outputBytes) / 1_048_576, plan?.bridges.count ?? 0, runs)
)
print(row("raw libyaml event pass (floor)", raw))
print(row("raw event pass, files on all cores", rawParallel))
print(row("load (events → nodes), 1 core", load))
print(row("decode (nodes → AST), 1 core", decode))
print(row("resolve + validate, 1 core", resolve))
print(row("plan, all cores", planning))
print(row("render, all cores", render))
print(row("diagrams: version + step, 2 formats", diagrams) + "   (\(diagramBytes / 1024) KiB)")
print(
    row("generate (in memory), all cores", pipeline)
        + String(
            format: "   (CPU %.1f ms on %d cores)", pipelineCPU * 1000, ProcessInfo.processInfo.activeProcessorCount))
print(row("end-to-end no-op regeneration", noOp))
print("first write: \(firstWrite) files; no-op regeneration wrote \(rewritten) files")
let budget = 3 * mib + 50
if let cliPeak {
    print(
        String(
            format: "peak RSS: CLI generate and a no-op regeneration %.1f MiB (budget 3 × input + 50 MiB = %.1f MiB; "
                + "this process held %.1f MiB when it ran them)", cliPeak, budget, benchBeforeCLI))
}
print(String(format: "peak RSS of this bench process, every stage's output held at once: %.1f MiB", peakRSSMiB()))

/// Instructions are steady where wall time is not (a busy machine, another core's work): where
/// valgrind is installed, count them for the raw pass, for the CLI's `generate` into an empty
/// folder and for it again into the folder it wrote (a no-op), each a whole process over the
/// written history (startup included in all three).
func instructions(_ executable: String, _ arguments: [String]) -> Int? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", executable] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }) else { return nil }
    return Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
}

let valgrindFound = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/valgrind")
}
if valgrindFound && !CommandLine.arguments.contains("--no-instructions"), let me = Bundle.main.executablePath {
    let cli = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("swiftdata-gen").path
    let scratch = root.appendingPathComponent("CallgrindOutput").path
    if let rawCount = instructions(me, ["--raw-only", schemaFolder]), FileManager.default.isExecutableFile(atPath: cli),
        let generateCount = instructions(cli, ["generate", schemaFolder, "--output", scratch, "--quiet"]),
        let noOpCount = instructions(cli, ["generate", schemaFolder, "--output", scratch, "--quiet"])
    {
        func againstRaw(_ count: Int) -> String {
            String(format: "%.0f M, %.2f× raw", Double(count) / 1e6, Double(count) / Double(rawCount))
        }
        print(
            String(format: "instructions (callgrind, whole processes): raw pass %.0f M, ", Double(rawCount) / 1e6)
                + "CLI generate \(againstRaw(generateCount)), no-op regeneration \(againstRaw(noOpCount))")
    }
}
