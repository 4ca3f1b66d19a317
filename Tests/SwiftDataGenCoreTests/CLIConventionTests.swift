import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The conventions of swift-argument-parser tools, kept by hand: help pages, errors, versions,
/// completion scripts, and the mistakes a new user makes first. Commands and options are read
/// from the tool's own help, never listed here, so a new one is checked without being named.
extension CLITests {
    /// The commands the overview lists, in its order.
    func declaredCommands() throws -> [String] {
        let overview = try run("--help").stdout
        let section = try XCTUnwrap(overview.firstMatch(of: /SUBCOMMANDS:\n([\s\S]*?)\n\n/)?.1)
        return section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The long options a command's help describes, `--help` included.
    func declaredOptions(of command: String) throws -> Set<String> {
        let help = try run(command, "--help").stdout
        let section = try XCTUnwrap(help.firstMatch(of: /OPTIONS:\n([\s\S]*?)\n\n/)?.1)
        return Set(section.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
    }

    func testHelpIsOneSourceForEveryCommandAndOption() throws {
        let overview = try run("--help")
        XCTAssertEqual(overview.status, 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:", "EXIT CODES:"] {
            XCTAssertTrue(overview.stdout.contains(section), section)
        }
        let commands = try declaredCommands()
        XCTAssertEqual(
            Set(commands).intersection(["generate", "validate", "check", "plan", "diagram", "lock", "new-version"])
                .count,
            7, "the overview lists the commands: \(commands)")
        for command in commands {
            let help = try run("help", command)
            XCTAssertEqual(help.status, 0)
            XCTAssertEqual(help.stdout, try run(command, "--help").stdout, "help \(command) is \(command) --help")
            XCTAssertEqual(try run(command, "-h").stdout, help.stdout)
            for section in [
                "OVERVIEW:", "USAGE: swiftdata-gen \(command)", "ARGUMENTS:", "<schema-dir>", "OPTIONS:", "-h, --help",
            ] {
                XCTAssertTrue(help.stdout.contains(section), "\(command): \(section)")
            }
            // Every option the help describes is one the command accepts: given without its
            // value, it is never "unknown" or "does not take".
            for option in try declaredOptions(of: command) where option != "--help" && option != "--version" {
                let given = try run(command, "schema-that-is-not-there", option)
                XCTAssertFalse(given.stderr.contains("unknown option"), "\(command) \(option): \(given.stderr)")
                XCTAssertFalse(given.stderr.contains("does not take"), "\(command) \(option): \(given.stderr)")
            }
        }
        let generate = try declaredOptions(of: "generate")
        for option in [
            "--output", "--layout", "--templates", "--hooks-output", "--upgrade-tests", "--testable-import", "--quiet",
        ] {
            XCTAssertTrue(generate.contains(option), option)
        }
        XCTAssertTrue(try run("plan", "--help").stdout.contains("--format <format>"))
        XCTAssertTrue(try run("lock", "--help").stdout.contains("--through <version>"))
    }

    func testVersionAndOptionSpellings() throws {
        let version = try run("--version")
        XCTAssertEqual(version.status, 0)
        XCTAssertNotNil(version.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression), version.stdout)
        let schema = try copyInput("library")
        let out = scratch.appendingPathComponent("out").path
        XCTAssertEqual(try run("generate", schema, "--output=\(out)", "--layout=schemas", "--quiet").status, 0)
        XCTAssertEqual(try run("check", schema, "-o", out).status, 0)
    }

    func testUsageErrorsAreShortAndPointAtTheHelp() throws {
        let typo = try run("generat", "x")
        XCTAssertEqual(typo.status, 2)
        XCTAssertEqual(
            typo.stderr,
            "Error: unknown command 'generat'; did you mean 'generate'?\nUsage: swiftdata-gen <command> "
                + "<schema-dir> [<options>]\n  See 'swiftdata-gen --help' for more information.\n"
        )
        let option = try run("generate", "x", "--ouput", "y")
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(
            option.stderr.hasPrefix(
                "Error: unknown option '--ouput'; did you mean '--output'?\nUsage: swiftdata-gen generate "
                    + "<schema-dir> --output <dir> [<options>]\n  See 'swiftdata-gen generate --help'"
            ), option.stderr)
        XCTAssertFalse(option.stderr.contains("OPTIONS:"), "not the whole help page")
        let misplaced = try run("validate", "x", "--format", "json")
        XCTAssertEqual(misplaced.status, 2)
        XCTAssertTrue(misplaced.stderr.contains("validate does not take --format"), misplaced.stderr)
        let missing = try run("plan", "x", "--format")
        XCTAssertTrue(missing.stderr.contains("--format needs a value <format>"), missing.stderr)
    }

    func testLockThroughAVersionThatDoesNotExistIsRefused() throws {
        let schema = try copyInput("library")
        let result = try run("lock", schema, "--through", "9.9.9")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--through 9.9.9: no schema has that version"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: schema + "/swiftdata-gen.lock"), "nothing locked")
    }

    func testCompletionScriptsNameEveryCommandAndOption() throws {
        let commands = try declaredCommands()
        var options: [String: Set<String>] = [:]
        for command in commands { options[command] = try declaredOptions(of: command) }
        for shell in ["bash", "zsh", "fish"] {
            let script = try run("--generate-completion-script", shell)
            XCTAssertEqual(script.status, 0)
            for command in commands {
                XCTAssertTrue(script.stdout.contains(command), "\(shell): \(command)")
                for option in options[command] ?? [] {
                    // fish names a long option without its dashes (`-l output`).
                    XCTAssertTrue(script.stdout.contains(option.dropFirst(2)), "\(shell): \(command) \(option)")
                }
            }
        }
        let bash = scratch.appendingPathComponent("completion.bash")
        try run("--generate-completion-script", "bash").stdout.write(to: bash, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n", bash.path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the bash script parses")
    }

    /// Each shell, run on the script the tool prints, completes an option's own choices after the
    /// command it follows (`plan --format` and `diagram --format` differ), and keeps the help text's
    /// apostrophes. bash runs everywhere; zsh and fish where installed (`.ci/run` installs them and
    /// sets `SDG_REQUIRE_SHELLS=1`, so there they never skip).
    func testEachShellCompletesTheChoicesOfTheCommandsOwnOption() throws {
        func shell(_ path: String, _ script: String) throws -> StandInTypeCheckTests.CompileResult {
            try StandInTypeCheckTests.run(path, ["-c", script])
        }
        let bash = scratch.appendingPathComponent("completion.bash")
        try run("--generate-completion-script", "bash").stdout.write(to: bash, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> String {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try shell(
                "/bin/bash",
                "source '\(bash.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _swiftdata_gen; "
                    + "echo \"${COMPREPLY[*]}\"")
            XCTAssertEqual(result.status, 0, result.output)
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try complete(["swiftdata-gen", "plan", "--format", ""]), "text json markdown")
        XCTAssertEqual(try complete(["swiftdata-gen", "diagram", "--format", ""]), "mermaid dot")
        XCTAssertEqual(try complete(["swiftdata-gen", "generate", "--layout", "i"]), "inputs")
        XCTAssertEqual(try complete(["swiftdata-gen", "--generate-completion-script", "z"]), "zsh")
        XCTAssertEqual(try complete(["swiftdata-gen", "diag"]), "diagram")
        let required = ProcessInfo.processInfo.environment["SDG_REQUIRE_SHELLS"] == "1"
        var missing: [String] = []
        for (name, path, check) in [
            ("zsh", "/usr/bin/zsh", "zsh -n"), ("fish", "/usr/bin/fish", "fish --no-execute"),
        ] {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                missing.append(name)
                continue
            }
            let file = scratch.appendingPathComponent("completion.\(name)")
            let script = try run("--generate-completion-script", name).stdout
            try script.write(to: file, atomically: true, encoding: .utf8)
            let parsed = try shell("/bin/sh", "\(check) '\(file.path)'")
            XCTAssertEqual(parsed.status, 0, "\(name) does not parse its script: \(parsed.output)")
            XCTAssertTrue(
                script.contains("plugin\(name == "zsh" ? "'\\''" : "\\'")s layout"), "\(name) keeps apostrophes")
        }
        if !missing.isEmpty {
            let reason =
                "\(missing.joined(separator: " and ")) not installed, so their completion scripts were not run; "
                + "install them (apt-get install zsh fish, as .ci/run does) and run this test again"
            if required { XCTFail(reason) } else { throw XCTSkip(reason) }
        }
    }

    /// A file name is printed in every diagnostic: one holding a line break and an escape sequence
    /// is shown escaped, so it cannot forge a `warning:` line or clear the terminal.
    func testDiagnosticsShowHostileFileNamesEscaped() throws {
        let folder = scratch.appendingPathComponent("hostile")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "schema: A\nversion: [1.0.0\n".write(
            to: folder.appendingPathComponent("1.0.0\nwarning: forged\u{1b}[2J.yaml"), atomically: true, encoding: .utf8
        )
        let result = try run("validate", folder.path)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1b}"), result.stderr)
        XCTAssertFalse(result.stderr.split(separator: "\n").contains { $0.hasPrefix("warning: forged") }, result.stderr)
        XCTAssertTrue(result.stderr.contains("1.0.0\\nwarning: forged\\u{1b}[2J.yaml"), result.stderr)
    }

    func testHooksNeedNoOutputFolder() throws {
        let schema = try copyInput("plan-hooks")
        let hooks = scratch.appendingPathComponent("hooks").path
        let result = try run("generate", schema, "--hooks-output", hooks)
        XCTAssertEqual(result.status, 0, result.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: hooks)
        XCTAssertEqual(written.count, 1, "\(written)")
        XCTAssertTrue(written.first?.hasSuffix("MigrationHooks.swift") == true)
    }

    /// One typo, one error: the misspelled key is read as the key meant, so nothing that follows
    /// from it is reported as a mistake of its own.
    func testATypoIsReportedOnceWithoutACascade() throws {
        let folder = scratch.appendingPathComponent("typo")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        schema: A
        version: 1.0.0
        models:
          X:
            proprties:
              a: { tpye: String }
              ys: "[Y]"
          Y:
            properties:
              x: { type: X?, inverse: ys }
              name: String
            unique: [name]
        """.write(to: folder.appendingPathComponent("1.0.0.yaml"), atomically: true, encoding: .utf8)
        let result = try run("validate", folder.path)
        XCTAssertEqual(result.status, 1)
        let errors = result.stderr.split(separator: "\n").filter {
            $0.contains(": error:") || $0.contains(": warning:")
        }
        XCTAssertEqual(errors.count, 2, result.stderr)
        XCTAssertTrue(errors.first?.contains("unknown key 'proprties'") == true, result.stderr)
        XCTAssertTrue(errors.last?.contains("unknown key 'tpye'") == true, result.stderr)
        XCTAssertTrue(result.stderr.contains("did you mean 'type'?"), "transpositions are one edit")
    }
}
