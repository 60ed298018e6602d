#!/usr/bin/env python3
"""Bootstrap generator for schemas/gateway-api.json (mirrors src/schema/bundle.rs::build_bundle).

The committed test tests/schema_bundle.rs regenerates the bundle in Rust and checks it is fresh;
this script only exists for machines without a built gwctl. Usage:
    scripts/gen-schemas.py [CORPUS_DIR]   (default: $GWCTL_CORPUS, else ../shared/corpus)
"""
import glob
import json
import os
import sys

import yaml

SCHEMA_VALUED = {"items", "additionalProperties", "not", "additionalItems"}
SCHEMA_LISTS = {"oneOf", "anyOf", "allOf"}
SCHEMA_MAPS = {"properties", "patternProperties", "definitions"}
ALIASES = [("gateway.networking.x-k8s.io", "XListenerSet", "v1alpha1",
            "gateway.networking.k8s.io", "ListenerSet", "v1")]


def strip(schema):
    if not isinstance(schema, dict):
        return schema
    out = {}
    for k, v in schema.items():
        if k == "description":
            continue
        if k in SCHEMA_VALUED:
            v = strip(v)
        elif k in SCHEMA_LISTS and isinstance(v, list):
            v = [strip(x) for x in v]
        elif k in SCHEMA_MAPS and isinstance(v, dict):
            v = {name: strip(s) for name, s in v.items()}
        out[k] = v
    return out


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GWCTL_CORPUS") or os.path.join(root, "..", "shared", "corpus")
    crd_dir = os.path.join(corpus, "gateway-api", "config", "crd", "experimental")
    if not os.path.isdir(crd_dir):
        sys.exit(f"corpus not found at {corpus}")
    versions = []
    for path in sorted(glob.glob(os.path.join(crd_dir, "*.yaml"))):
        for doc in yaml.safe_load_all(open(path)):
            if not doc or doc.get("kind") != "CustomResourceDefinition":
                continue
            spec = doc["spec"]
            for v in spec["versions"]:
                versions.append({
                    "group": spec["group"], "kind": spec["names"]["kind"], "version": v["name"],
                    "served": v.get("served", True), "scope": spec.get("scope", "Namespaced"),
                    "status": "status" in (v.get("subresources") or {}),
                    "schema": strip(v["schema"]["openAPIV3Schema"]),
                })
    for group, kind, version, fg, fk, fv in ALIASES:
        src = next(v for v in versions if (v["group"], v["kind"], v["version"]) == (fg, fk, fv))
        versions.append(dict(src, group=group, kind=kind, version=version))
    order = sorted(range(len(versions)), key=lambda i: (versions[i]["group"], versions[i]["kind"], i))
    schemas, kinds = [], []
    for i in order:
        v = versions[i]
        if v["schema"] in schemas:
            index = schemas.index(v["schema"])
        else:
            schemas.append(v["schema"])
            index = len(schemas) - 1
        entry = {"name": v["version"], "served": v["served"], "statusSubresource": v["status"], "schema": index}
        if kinds and (kinds[-1]["group"], kinds[-1]["kind"]) == (v["group"], v["kind"]):
            kinds[-1]["versions"].append(entry)
        else:
            kinds.append({"group": v["group"], "kind": v["kind"], "scope": v["scope"], "versions": [entry]})
    with open(os.path.join(root, "schemas", "gateway-api.json"), "w") as f:
        json.dump({"kinds": kinds, "schemas": schemas}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
