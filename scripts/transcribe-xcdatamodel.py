#!/usr/bin/env python3
"""Writes the stored shape of a public app's .xcdatamodeld as a bundle of our own, for the
importer's fixtures: entities, attributes, relationships and constraints with the attributes the
importer reads, nothing else (no layout, user info, predicates or comments). The result is a
transcription of the model's facts in this project's layout, never a copy of the file.

Usage: scripts/transcribe-xcdatamodel.py <source.xcdatamodeld> <target.xcdatamodeld> [version ...]
       scripts/transcribe-xcdatamodel.py --mapping <source.xcmappingmodel> <target.xcmappingmodel>
The versions named (folder names without .xcdatamodel) are transcribed; default: all in XML form.
For a mapping model, only each entity mapping's source, destination and custom policy class.
"""
import os
import sys
import xml.etree.ElementTree as ET
from xml.sax.saxutils import quoteattr

KEPT = {
    "model": ["usedWithCloudKit"],
    "entity": ["name", "representedClassName", "parentEntity", "isAbstract", "versionHashModifier", "elementID",
               "renamingIdentifier"],
    "attribute": ["name", "optional", "transient", "indexed", "attributeType", "defaultValueString", "defaultDateTimeInterval",
                  "allowsExternalBinaryDataStorage", "spotlightIndexingEnabled", "allowsCloudEncryption",
                  "preserveAfterDeletion", "versionHashModifier", "elementID", "renamingIdentifier",
                  "valueTransformerName", "customClassName", "derived", "composite"],
    "relationship": ["name", "optional", "transient", "toMany", "ordered", "minCount", "maxCount", "deletionRule",
                     "destinationEntity", "inverseName", "inverseEntity", "versionHashModifier", "elementID",
                     "renamingIdentifier"],
    "composite": ["name"],
    "fetchedProperty": ["name"],
    "fetchRequest": ["name", "entity"],
    "configuration": ["name"],
    "memberEntity": ["name"],
    "uniquenessConstraints": [], "uniquenessConstraint": [], "constraint": ["value"],
    "fetchIndex": ["name"], "fetchIndexElement": ["property"],
    "compoundIndexes": [], "compoundIndex": [], "index": ["value"],
}


def write(element, depth, out):
    if element.tag not in KEPT:
        return
    attributes = "".join(
        f" {name}={quoteattr(element.attrib[name])}" for name in KEPT[element.tag] if name in element.attrib)
    children = [child for child in element if child.tag in KEPT and element.tag != "fetchedProperty"]
    pad = "    " * depth
    if not children:
        out.append(f"{pad}<{element.tag}{attributes}/>")
        return
    out.append(f"{pad}<{element.tag}{attributes}>")
    for child in children:
        write(child, depth + 1, out)
    out.append(f"{pad}</{element.tag}>")


def mapping(source, target):
    root = ET.parse(os.path.join(source, "xcmapping.xml")).getroot()
    out = ['<?xml version="1.0" standalone="yes"?>', "<database>"]
    for number, obj in enumerate(root.iter("object")):
        if obj.get("type") != "XDDEVENTITYMAPPING":
            continue
        values = {a.get("name"): (a.text or "") for a in obj.findall("attribute")}
        out.append(f'    <object type="XDDEVENTITYMAPPING" id="m{number}">')
        for name in ["sourcename", "destinationname", "migrationpolicyclassname"]:
            if values.get(name):
                text = values[name].replace("&", "&amp;").replace("<", "&lt;")
                out.append(f'        <attribute name="{name}" type="string">{text}</attribute>')
        out.append("    </object>")
    out.append("</database>")
    os.makedirs(target, exist_ok=True)
    with open(os.path.join(target, "xcmapping.xml"), "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    if sys.argv[1] == "--mapping":
        mapping(sys.argv[2], sys.argv[3])
        return
    source, target = sys.argv[1], sys.argv[2]
    wanted = sys.argv[3:]
    names = sorted(n[:-len(".xcdatamodel")] for n in os.listdir(source) if n.endswith(".xcdatamodel"))
    for name in wanted or names:
        contents = os.path.join(source, name + ".xcdatamodel", "contents")
        if not os.path.exists(contents):
            print(f"skipped {name}: no XML contents", file=sys.stderr)
            continue
        root = ET.parse(contents).getroot()
        out = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>']
        write(root, 0, out)
        folder = os.path.join(target, name + ".xcdatamodel")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "contents"), "w") as f:
            f.write("\n".join(out) + "\n")
    current = os.path.join(source, ".xccurrentversion")
    if os.path.exists(current):
        value = ET.parse(current).getroot().find("dict/string").text
        with open(os.path.join(target, ".xccurrentversion"), "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
                    f"\t<key>_XCCurrentVersionName</key>\n\t<string>{value}</string>\n</dict>\n</plist>\n")


if __name__ == "__main__":
    main()
