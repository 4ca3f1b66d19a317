/// Shell completion for bash, zsh and fish, written from the same command and option lists that
/// parsing and help read.
enum CompletionScript {
    typealias Arguments = CommandLineArguments

    static func text(for shell: String) -> String {
        switch shell {
        case "zsh": return zsh
        case "fish": return fish
        default: return bash
        }
    }

    private static var commands: [String] { Arguments.Command.allCases.map(\.rawValue) + ["help"] }

    private static func values(_ option: Arguments.Option) -> String? {
        if case .choice(_, let choices) = option.kind { return choices.joined(separator: " ") }
        return nil
    }

    static var bash: String {
        var cases: [String] = []
        for command in Arguments.Command.allCases {
            let names = Arguments.options(for: command).flatMap(\.names).joined(separator: " ")
            cases.append("        \(command.rawValue)) opts=\"\(names)\" ;;")
        }
        // Keyed by the command and the option: `plan --format` and `diagram --format` offer their own.
        var valueCases: [String] = []
        for option in Arguments.all {
            let commands = option.commands.isEmpty ? ["*"] : option.commands.map(\.rawValue)
            let keys = commands.flatMap { command in option.names.map { "\(command):\($0)" } }.joined(separator: "|")
            switch option.kind {
            case .flag: continue
            case .folder: valueCases.append("        \(keys)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;")
            case .file: valueCases.append("        \(keys)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
            case .choice(_, let choices):
                valueCases.append(
                    "        \(keys)) COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\")); "
                        + "return ;;"
                )
            case .text: valueCases.append("        \(keys)) return ;;")
            case .optionalStep: continue
            }
        }
        return """
            # bash completion for swiftdata-gen (swiftdata-gen --generate-completion-script bash)
            _swiftdata_gen() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts
                case "${COMP_WORDS[1]}:$prev" in
            \(valueCases.joined(separator: "\n"))
                esac
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(commands.joined(separator: " ")) --help --version" -- "$cur"))
                    return
                fi
                case "${COMP_WORDS[1]}" in
            \(cases.joined(separator: "\n"))
                    help) COMPREPLY=($(compgen -W "\(Arguments.Command.allCases.map(\.rawValue).joined(separator: " "))" -- "$cur")); return ;;
                    *) opts="" ;;
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                else
                    COMPREPLY=($(compgen -d -- "$cur"))
                fi
            }
            complete -F _swiftdata_gen swiftdata-gen

            """
    }

    static var zsh: String {
        var functions: [String] = []
        for command in Arguments.Command.allCases {
            let specs = Arguments.options(for: command).map { option -> String in
                let help = Self.singleQuoted(
                    String(option.help.map { $0 == "[" ? "(" : $0 == "]" ? ")" : $0 }))
                let action: String
                switch option.kind {
                case .flag: action = ""
                case .folder(let name): action = ":\(name):_files -/"
                case .file(let name): action = ":\(name):_files"
                case .optionalStep(let name): action = "::\(name): "
                case .choice(let name, let choices): action = ":\(name):(\(choices.joined(separator: " ")))"
                case .text(let name): action = ":\(name): "
                }
                let names = option.names.count > 1 ? "{\(option.names.joined(separator: ","))}" : option.names[0]
                return "        '\(names)[\(help)]\(action)'"
            }
            functions.append(
                """
                _swiftdata_gen_\(command.rawValue)() {
                    _arguments \\
                \(specs.joined(separator: " \\\n"))  \\
                        ':schema-dir:_files -/'
                }
                """)
        }
        let described = Arguments.Command.allCases.map {
            "        '\($0.rawValue):\(Self.singleQuoted($0.abstract))'"
        }
        return """
            #compdef swiftdata-gen
            # zsh completion for swiftdata-gen (swiftdata-gen --generate-completion-script zsh)

            \(functions.joined(separator: "\n\n"))

            _swiftdata_gen() {
                local -a commands
                commands=(
            \(described.joined(separator: "\n"))
                    'help:Show help for a command.'
                )
                if (( CURRENT == 2 )); then
                    _describe 'command' commands
                    return
                fi
                case $words[2] in
            \(Arguments.Command.allCases.map { "        \($0.rawValue)) shift words; (( CURRENT-- )); _swiftdata_gen_\($0.rawValue) ;;" }.joined(separator: "\n"))
                    help) _describe 'command' commands ;;
                esac
            }

            _swiftdata_gen "$@"

            """
    }

    static var fish: String {
        var lines = [
            "# fish completion for swiftdata-gen (swiftdata-gen --generate-completion-script fish)",
            "complete -c swiftdata-gen -f",
        ]
        for command in Arguments.Command.allCases {
            lines.append(
                "complete -c swiftdata-gen -n '__fish_use_subcommand' -a \(command.rawValue) -d "
                    + "'\(Self.fishQuoted(command.abstract))'"
            )
        }
        lines.append("complete -c swiftdata-gen -n '__fish_use_subcommand' -a help -d 'Show help for a command.'")
        for command in Arguments.Command.allCases {
            for option in Arguments.options(for: command) {
                var line = "complete -c swiftdata-gen -n '__fish_seen_subcommand_from \(command.rawValue)'"
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
                }
                switch option.kind {
                case .flag: break
                case .folder: line += " -r -a '(__fish_complete_directories)'"
                case .file: line += " -r -F"
                case .optionalStep: break
                case .choice(_, let choices): line += " -x -a '\(choices.joined(separator: " "))'"
                case .text: line += " -x"
                }
                line += " -d '\(Self.fishQuoted(option.help))'"
                lines.append(line)
            }
            lines.append(
                "complete -c swiftdata-gen -n '__fish_seen_subcommand_from \(command.rawValue)' -a "
                    + "'(__fish_complete_directories)'"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text inside a POSIX single-quoted word (bash, zsh): each `'` closes the word, adds an escaped
    /// quote and opens it again, so help text keeps its apostrophes.
    static func singleQuoted(_ text: String) -> String {
        text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
    }

    /// Text inside a fish single-quoted word, where `\'` is a quote.
    static func fishQuoted(_ text: String) -> String {
        text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "\\'")
    }
}
