#!/usr/bin/env python3
"""Writes Sources/SwiftDataGenCore/Rendering/BundledTemplates.swift from Templates/mustache.

The tool carries its templates as string literals rather than a resource bundle, so the binary is
complete on its own and no Foundation `Bundle` is needed to find them. Run this after editing a
template; BundledTemplatesTests fails while the two disagree. The layout is the one
`swift format` gives, so scripts/lint.sh holds this file like any other.
Usage: scripts/embed-templates.py
"""
import os
import sys

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
folder = os.path.join(here, "Templates", "mustache")
target = os.path.join(here, "Sources", "SwiftDataGenCore", "Rendering", "BundledTemplates.swift")


def raw_literal(text, indent):
    """A multi-line raw string literal holding text exactly, trailing newline included."""
    hashes = "#"
    while ('"""' + hashes) in text or ("\\" + hashes) in text:
        hashes += "#"
    lines = text.split("\n")
    body = "\n".join((indent + line) if line else "" for line in lines)
    return hashes + '"""\n' + body + "\n" + indent + '"""' + hashes


entries = []
for name in sorted(os.listdir(folder)):
    if not name.endswith(".mustache"):
        continue
    with open(os.path.join(folder, name), encoding="utf-8") as handle:
        text = handle.read()
    if "\r" in text:
        sys.exit(f"embed-templates: {name} has carriage returns; save it with LF line endings")
    key = name[: -len(".mustache")]
    entries.append(f'            "{key}": {raw_literal(text, "            ")},')

swift = "\n".join([
    "// Written by scripts/embed-templates.py from Templates/mustache; edit the templates, then rerun it.",
    "",
    "extension TemplateSet {",
    "    /// The templates built into the tool, so the executable needs no resource bundle beside it.",
    "    public static let bundled = TemplateSet(",
    "        sources: [",
    *entries,
    "        ], isBundled: true)",
    "}",
    "",
])
with open(target, "w", encoding="utf-8") as handle:
    handle.write(swift)
print(f"embed-templates: wrote {os.path.relpath(target, here)} ({len(entries)} templates)")
